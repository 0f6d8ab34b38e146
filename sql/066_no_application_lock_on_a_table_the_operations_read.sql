-- No client role holds a privilege that lets it LOCK TABLE a table the operations read: UPDATE,
-- DELETE or TRUNCATE of the whole table. lifecycle_app could lock lifecycle.namespace_members
-- (DELETE) and lifecycle.webhooks (UPDATE, DELETE) in ACCESS EXCLUSIVE mode: every state change of
-- every organization then waited for it (55P03 after the lock timeout), and no fact was recorded.
-- A membership or a webhook is now removed through a function (namespace_member_remove,
-- webhook_remove), and a webhook changed with column privileges, which give no table lock.
{{ template "functions/namespace_member_remove.sql" . }}
{{ template "functions/webhook_remove.sql" . }}
revoke all on function lifecycle.namespace_member_remove(bigint, bigint), lifecycle.webhook_remove(bigint) from public;
grant execute on function lifecycle.namespace_member_remove(bigint, bigint), lifecycle.webhook_remove(bigint)
  to lifecycle_app, lifecycle_worker;
-- The members bridge asks a writer for the right to remove a membership as the function's.
{{ template "triggers/legacy_members_source.sql" . }}
revoke delete on lifecycle.namespace_members from lifecycle_app, lifecycle_worker;
-- A table-level revoke takes the column privileges of the same kind with it: the columns' UPDATE
-- comes after.
revoke update, delete on lifecycle.webhooks from lifecycle_app;
grant update (actions, active, namespace_id, secret, url) on lifecycle.webhooks to lifecycle_app;

---- create above / drop below ----

revoke update (actions, active, namespace_id, secret, url) on lifecycle.webhooks from lifecycle_app;
grant update, delete on lifecycle.webhooks to lifecycle_app;
grant delete on lifecycle.namespace_members to lifecycle_app, lifecycle_worker;
{{ template "released/1.0.0/triggers/legacy_members_source.sql" . }}
drop function lifecycle.namespace_member_remove(bigint, bigint);
drop function lifecycle.webhook_remove(bigint);
