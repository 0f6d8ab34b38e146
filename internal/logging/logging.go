// Package logging builds the binaries' slog logger from their -log-format and -log-level flags.
package logging

import (
	"fmt"
	"io"
	"log/slog"
)

// New returns a text or JSON logger writing to w at the given level (debug, info, warn, error).
func New(w io.Writer, format, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("-log-level: %w", err)
	}
	opts := &slog.HandlerOptions{Level: l}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("-log-format must be text or json, not %q", format)
}
