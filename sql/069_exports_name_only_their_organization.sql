-- An organization's export is input from another cluster: organization_move_in refuses (NS010)
-- every row that does not belong to the organization or names anything outside it: a redirect of
-- an old path outside the organization's path and below (case aside), or of one that resolves
-- here to another namespace, a row of a namespace not staged (a transfer request's former parent
-- included), a row of a kind the export does not write, a header naming another organization or
-- path, a redirect of an unknown kind. Two extra redirects of another organization's old path
-- (and its case form) were accepted, and took that organization's old paths over.
-- organization_export leaves out the redirects of old paths outside the organization and the
-- transfer requests from a parent outside it, which the target refuses.
{{ template "functions/organization_export.sql" . }}
{{ template "functions/organization_move_in.sql" . }}

---- create above / drop below ----

{{ template "released/1.0.0/functions/organization_export.sql" . }}
{{ template "released/1.0.0/functions/organization_move_in.sql" . }}
