-- legacy_bridge_add checks every identifier against the catalog (docs/design.md §10): a missing
-- column, a column of the wrong type, a state that cannot be bridged, a table of the lifecycle
-- schema, an existence bridge over a table with required columns it could not fill, and a table
-- bridged to a state twice are refused with NS010, adding nothing.
begin;
select plan(7);
create schema legacy;
create table legacy.t (ns bigint, flag boolean, note text, at timestamptz, who bigint);
create table legacy.strict (ns bigint not null, must text not null);

select throws_ok($$select lifecycle.legacy_bridge_add('legacy.t', 'nope', 'archived', 'flag')$$, 'NS010', null, 'a missing column');
select throws_ok($$select lifecycle.legacy_bridge_add('legacy.t', 'ns', 'archived', 'note')$$, 'NS010', null,
                 'a condition that is neither boolean nor a date or time');
select throws_ok($$select lifecycle.legacy_bridge_add('legacy.t', 'ns', 'transfer_in_progress', 'flag')$$, 'NS010', null,
                 'a state an operation must reach');
select throws_ok($$select lifecycle.legacy_bridge_add('lifecycle.settings', 'id', 'archived', 'delete_now_allowed')$$, 'NS010', null,
                 'a table of the lifecycle schema');
select throws_ok($$select lifecycle.legacy_bridge_add('legacy.strict', 'ns', 'deletion_scheduled')$$, 'NS010', null,
                 'an existence bridge over a table with a required column it cannot fill');
select lives_ok($$select lifecycle.legacy_bridge_add('legacy.t', 'ns', 'archived', 'flag', 'at', 'who')$$, 'a good bridge');
select throws_ok($$select lifecycle.legacy_bridge_add('legacy.t', 'ns', 'archived', 'flag')$$, 'NS010', null,
                 'the same table and state twice');

select * from finish();
rollback;
