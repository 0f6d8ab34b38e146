-- JSON schemas the database validates documents against, a subset of JSON Schema (type, enum,
-- properties, required, additionalProperties, minimum, maxLength, format date-time, and the
-- product's format "lifecycle-state", a name in lifecycle.states: jsonb_schema_violation).
-- state_metadata checks the namespaces' state_metadata (namespace_details_validate) and the
-- metadata a state change is called with (state_metadata_refusal). The schema owner's to change.
create table lifecycle.json_schemas (
  name text not null,
  schema jsonb not null,
  -- Documents larger than this (bytes of their text form) are refused.
  max_bytes integer not null,
  constraint json_schemas_pkey primary key (name),
  constraint json_schemas_max_bytes_check check ((max_bytes > 0)),
  constraint json_schemas_schema_check check ((jsonb_typeof(schema) = 'object'::text))
);

insert into lifecycle.json_schemas (name, schema, max_bytes) values
  ('state_metadata', '{
    "type": "object",
    "properties": {
        "reason": {
            "type": "string",
            "maxLength": 1000
        },
        "progress": {
            "type": "object",
            "required": [
                "done",
                "total"
            ],
            "properties": {
                "done": {
                    "type": "integer",
                    "minimum": 0
                },
                "total": {
                    "type": "integer",
                    "minimum": 0
                }
            },
            "additionalProperties": false
        },
        "last_error": {
            "type": [
                "string",
                "null"
            ],
            "maxLength": 2000
        },
        "attempt_count": {
            "type": "integer",
            "minimum": 0
        },
        "correlation_id": {
            "type": "string",
            "maxLength": 200
        },
        "previous_state": {
            "type": "string",
            "format": "lifecycle-state",
            "description": "The state before the current one; deletion_failed returns to it."
        },
        "last_updated_at": {
            "type": "string",
            "format": "date-time"
        },
        "preserved_state": {
            "type": "string",
            "format": "lifecycle-state",
            "description": "The permanent state before the current run of temporary states; restore, transfer_done and unmaintain return to it."
        },
        "last_changed_by_user_id": {
            "type": [
                "integer",
                "null"
            ]
        },
        "inherited_from_namespace_id": {
            "type": [
                "integer",
                "null"
            ]
        }
    },
    "additionalProperties": false
}', 16384);
