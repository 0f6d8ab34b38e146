-- The minimum effective access level (GitLab: 10 guest, 20 reporter, 30 developer, 40 maintainer,
-- 50 owner) an actor needs for each operation that is not a state transition (operation_check,
-- actor_refusal). The schema owner's to change.
create table lifecycle.operation_policies (
  operation text not null,
  min_access_level smallint default 50 not null,
  description text not null,
  constraint operation_policies_pkey primary key (operation),
  constraint operation_policies_min_access_level_check check ((min_access_level = any (array[10, 20, 30, 40, 50])))
);

insert into lifecycle.operation_policies (operation, min_access_level, description) values
  ('change_visibility', 50, 'Change the visibility of a namespace.'),
  ('rename', 50, 'Change the path (and name) of a namespace.'),
  ('transfer_accept', 50, 'Accept or decline an offered namespace (on the new parent).'),
  ('transfer_cancel', 50, 'Cancel a pending request (on the namespace; the requester always may).'),
  ('transfer_request', 50, 'Offer a namespace to a new parent (on the namespace).');
