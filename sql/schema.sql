--
-- PostgreSQL database dump
--

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: lifecycle; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA lifecycle;

--
-- Name: namespace_full_path(bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_full_path(namespace_id bigint) RETURNS text
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select pg_catalog.string_agg(a.path, '/' order by t.depth)
    from lifecycle.namespaces n
   cross join lateral pg_catalog.unnest(n.traversal_ids) with ordinality as t(id, depth)
    join lifecycle.namespaces a on a.id = t.id
   where n.id = namespace_full_path.namespace_id
$$;

--
-- Name: FUNCTION namespace_full_path(namespace_id bigint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_full_path(namespace_id bigint) IS 'Full path of a namespace (root/…/self); null when the namespace does not exist.';

--
-- Name: namespaces_traversal_ids_cascade(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespaces_traversal_ids_cascade() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  depth int := pg_catalog.cardinality(old.traversal_ids);
begin
  -- Descendants of X sort after X and before X with its last element + 1; the btree on
  -- traversal_ids serves this range, so the cost is the subtree, never the table.
  update lifecycle.namespaces d
     set traversal_ids = new.traversal_ids || d.traversal_ids[depth + 1:]
   where d.traversal_ids > old.traversal_ids
     and d.traversal_ids < old.traversal_ids[1:depth - 1] || (old.traversal_ids[depth] + 1);
  return null;
end
$$;

--
-- Name: namespaces_traversal_ids_maintain(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespaces_traversal_ids_maintain() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  parent_type text;
  parent_traversal_ids bigint[];
begin
  if tg_op = 'UPDATE' and new.parent_id is not distinct from old.parent_id then
    -- The only legitimate writer of traversal_ids alone is the cascade trigger, one level down.
    if new.traversal_ids is distinct from old.traversal_ids and pg_catalog.pg_trigger_depth() < 2 then
      raise exception using
        errcode = 'NS010',
        message = 'traversal_ids is maintained by the database',
        detail = pg_catalog.format('namespace_id=%s', new.id),
        hint = 'Change parent_id (through a transfer) and the database recomputes traversal_ids.';
    end if;
    return new;
  end if;

  if new.parent_id is null then
    new.traversal_ids := array[new.id];
    return new;
  end if;

  -- FOR SHARE on the parent: it must not move (nor, with the state gate, change state) until this
  -- row commits, so the path copied here stays true.
  select n.type, n.traversal_ids
    into parent_type, parent_traversal_ids
    from lifecycle.namespaces n
   where n.id = new.parent_id
     for share;

  if not found then
    raise exception using
      errcode = 'NS004',
      message = 'parent namespace not found',
      detail = pg_catalog.format('parent_id=%s', new.parent_id),
      hint = 'Create the parent first, or pass the id of an existing namespace.';
  end if;

  if parent_type = 'project' then
    raise exception using
      errcode = 'NS010',
      message = 'a project cannot have children',
      detail = pg_catalog.format('parent_id=%s type=%s', new.parent_id, parent_type),
      hint = 'Place the namespace under a group, an organization or a user namespace.';
  end if;

  if new.id = any (parent_traversal_ids) then
    raise exception using
      errcode = 'NS010',
      message = 'a namespace cannot be placed below itself',
      detail = pg_catalog.format('namespace_id=%s parent_id=%s', new.id, new.parent_id),
      hint = 'Choose a parent outside the namespace''s own subtree.';
  end if;

  new.traversal_ids := parent_traversal_ids || new.id;
  return new;
end
$$;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: namespaces; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.namespaces (
    id bigint NOT NULL,
    parent_id bigint,
    type text NOT NULL,
    path text NOT NULL,
    name text NOT NULL,
    visibility text DEFAULT 'private'::text NOT NULL,
    state smallint DEFAULT 0 NOT NULL,
    traversal_ids bigint[] NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT namespaces_no_self_parent CHECK ((parent_id <> id)),
    CONSTRAINT namespaces_organization_is_root CHECK (((type <> 'organization'::text) OR (parent_id IS NULL))),
    CONSTRAINT namespaces_type_check CHECK ((type = ANY (ARRAY['organization'::text, 'group'::text, 'project'::text, 'user'::text]))),
    CONSTRAINT namespaces_visibility_check CHECK ((visibility = ANY (ARRAY['private'::text, 'internal'::text, 'public'::text])))
);

--
-- Name: TABLE namespaces; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.namespaces IS 'Organizations, groups, projects and user namespaces in one tree; state holds the ADR 001 code.';

--
-- Name: COLUMN namespaces.traversal_ids; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON COLUMN lifecycle.namespaces.traversal_ids IS 'Ids from the root to this namespace, kept by the database; descendants of X are the rows with X as a prefix.';

--
-- Name: namespaces_id_seq; Type: SEQUENCE; Schema: lifecycle; Owner: -
--

ALTER TABLE lifecycle.namespaces ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME lifecycle.namespaces_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: namespaces namespaces_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespaces
    ADD CONSTRAINT namespaces_pkey PRIMARY KEY (id);

--
-- Name: namespaces_parent_id_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX namespaces_parent_id_idx ON lifecycle.namespaces USING btree (parent_id);

--
-- Name: namespaces_traversal_ids_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX namespaces_traversal_ids_idx ON lifecycle.namespaces USING btree (traversal_ids);

--
-- Name: namespaces namespaces_traversal_ids_cascade; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_traversal_ids_cascade AFTER UPDATE OF parent_id ON lifecycle.namespaces FOR EACH ROW WHEN ((old.traversal_ids IS DISTINCT FROM new.traversal_ids)) EXECUTE FUNCTION lifecycle.namespaces_traversal_ids_cascade();

--
-- Name: namespaces namespaces_traversal_ids_maintain; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_traversal_ids_maintain BEFORE INSERT OR UPDATE OF parent_id, traversal_ids ON lifecycle.namespaces FOR EACH ROW EXECUTE FUNCTION lifecycle.namespaces_traversal_ids_maintain();

--
-- Name: namespaces namespaces_parent_id_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespaces
    ADD CONSTRAINT namespaces_parent_id_fkey FOREIGN KEY (parent_id) REFERENCES lifecycle.namespaces(id);

--
-- Name: SCHEMA lifecycle; Type: ACL; Schema: -; Owner: -
--

GRANT USAGE ON SCHEMA lifecycle TO lifecycle_app;
GRANT USAGE ON SCHEMA lifecycle TO lifecycle_worker;

--
-- Name: FUNCTION namespace_full_path(namespace_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

GRANT ALL ON FUNCTION lifecycle.namespace_full_path(namespace_id bigint) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_full_path(namespace_id bigint) TO lifecycle_worker;

--
-- Name: TABLE namespaces; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.namespaces TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.namespaces TO lifecycle_worker;

--
-- PostgreSQL database dump complete
--

