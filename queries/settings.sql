-- name: SettingsGet :one
SELECT * FROM lifecycle.settings;
