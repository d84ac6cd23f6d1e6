package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"

	"go.uber.org/zap"
	"go.uber.org/zap/exp/zapslog"
	"go.uber.org/zap/zapcore"

	"github.com/structls/structls/lsp"
)

// stdio joins stdin and stdout into the server's stream.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }

// serve runs the language server on stdin/stdout. Nothing but JSON-RPC is
// ever written to stdout: logs go to stderr or --log-file.
func serve(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("serve", stdout, stderr)
	fs.Bool("stdio", true, "talk LSP over stdin/stdout (the only transport; accepted for VS Code)")
	logFile := fs.String("log-file", "", "write the server log to this file instead of stderr")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		return exitError, err
	}
	logger, level, closeLog, err := newLogger(*logFile, *logLevel, stderr)
	if err != nil {
		return exitError, err
	}
	defer closeLog()
	code := lsp.Serve(context.Background(), stdio{stdin, stdout}, lsp.Options{Logger: logger, Level: &level, Version: version})
	return code, nil
}

// newLogger builds the zap logger (JSON lines) and routes the standard
// library's slog, which the protocol libraries use, into it.
func newLogger(file, level string, stderr io.Writer) (*zap.Logger, zap.AtomicLevel, func(), error) {
	lvl, err := zap.ParseAtomicLevel(level)
	if err != nil {
		return nil, lvl, nil, fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	sink, closeSink := zapcore.AddSync(stderr), func() {}
	if file != "" {
		f, err := os.OpenFile(file, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, lvl, nil, fmt.Errorf("--log-file: %w", err)
		}
		sink, closeSink = zapcore.AddSync(f), func() { _ = f.Close() }
	}
	core := zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), sink, lvl)
	logger := zap.New(core)
	slog.SetDefault(slog.New(zapslog.NewHandler(core)))
	return logger, lvl, func() { _ = logger.Sync(); closeSink() }, nil
}
