package remote

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/ctxhq/ctx/internal/tomlerr"
)

// ConfigName is the file that configures a remote: in a store directory
// (.ctx/remote.toml) for one workspace, else in the XDG config directory
// ($XDG_CONFIG_HOME/ctx/remote.toml, ~/.config/ctx/remote.toml) for all.
const ConfigName = "remote.toml"

// Config says where the shared tier is. Credentials are never in it: they come
// from the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN) or the standard AWS chain (AWS_PROFILE and
// ~/.aws/credentials, then an instance role).
type Config struct {
	Endpoint string `toml:"endpoint"` // host:port, or a URL; http:// means no TLS
	Bucket   string `toml:"bucket"`
	Prefix   string `toml:"prefix"` // key prefix inside the bucket; default "ctx"
	Region   string `toml:"region"`
	// Push is "background" (default: ctx run starts a detached ctx push after
	// committing) or "manual" (only ctx push).
	Push string `toml:"push"`
	// Recipients are age recipients (age1…): when set, every object's bytes are
	// encrypted to them before they leave the machine.
	Recipients []string `toml:"recipients"`
	// IdentityFile is an age identity file used to decrypt (a path: the key
	// itself never goes in this file).
	IdentityFile string `toml:"identity_file"`
	// Timeout bounds one request's wait to connect and for an answer to
	// begin (a Go duration; default DefaultTimeout; $CTX_REMOTE_TIMEOUT
	// overrides it).
	Timeout string `toml:"timeout"`

	path string // the file it was read from
}

// Path is the file the configuration was read from.
func (c *Config) Path() string { return c.path }

// ConfigPaths lists the files a remote is configured by, first match wins:
// the store's own, then the user's.
func ConfigPaths(storeDir string) []string {
	var out []string
	if storeDir != "" {
		out = append(out, filepath.Join(storeDir, ConfigName))
	}
	if dir := os.Getenv("XDG_CONFIG_HOME"); dir != "" {
		out = append(out, filepath.Join(dir, "ctx", ConfigName))
	} else if home, err := os.UserHomeDir(); err == nil {
		out = append(out, filepath.Join(home, ".config", "ctx", ConfigName))
	}
	return out
}

// Configured reports whether a configuration file exists (one stat per path:
// cheap enough for ctx run to ask after every commit).
func Configured(storeDir string) bool {
	for _, p := range ConfigPaths(storeDir) {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}

// ErrNotConfigured is returned by LoadConfig when no configuration file exists.
var ErrNotConfigured = errors.New("no remote is configured")

// LoadConfig reads the first configuration file of ConfigPaths.
func LoadConfig(storeDir string) (*Config, error) {
	paths := ConfigPaths(storeDir)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read remote config %s: %w", p, err)
		}
		if storeDir != "" && p == paths[0] {
			if err := checkTrusted(p); err != nil {
				return nil, err
			}
		}
		c, err := ParseConfig(b)
		if err != nil {
			return nil, fmt.Errorf("remote config %s: %w", p, err)
		}
		c.path = p
		return c, nil
	}
	return nil, fmt.Errorf("%w: write endpoint and bucket to %s (docs/remote.md)", ErrNotConfigured, strings.Join(paths, " or "))
}

// ParseConfig parses and checks a configuration file's text. Unknown keys
// are refused, credentials by name.
func ParseConfig(b []byte) (*Config, error) {
	c := &Config{}
	dec := toml.NewDecoder(bytes.NewReader(b)).DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		for _, k := range tomlerr.UnknownKeys(err) {
			key := strings.ToLower(k)
			if strings.Contains(key, "secret") || strings.Contains(key, "access") || strings.Contains(key, "token") || strings.Contains(key, "password") {
				return nil, fmt.Errorf("key %q: credentials never go in the config; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment or use an AWS profile", key)
			}
		}
		return nil, tomlerr.Describe(err, "the keys are endpoint, bucket, prefix, region, push, recipients, identity_file, timeout")
	}
	switch {
	case c.Endpoint == "":
		return nil, errors.New(`endpoint is missing (e.g. endpoint = "https://s3.eu-west-1.amazonaws.com")`)
	case c.Bucket == "":
		return nil, errors.New(`bucket is missing (e.g. bucket = "team-ctx")`)
	}
	if n := len(c.Bucket); n < 3 || n > 63 {
		return nil, fmt.Errorf("bucket = %q: an S3 bucket name has 3 to 63 characters", c.Bucket)
	}
	switch c.Push {
	case "":
		c.Push = "background"
	case "background", "manual":
	default:
		return nil, fmt.Errorf("push = %q: use \"background\" or \"manual\"", c.Push)
	}
	if c.Prefix == "" {
		c.Prefix = "ctx"
	}
	if c.Timeout != "" {
		if _, err := parseTimeout(c.Timeout); err != nil {
			return nil, fmt.Errorf("timeout = %q: %w", c.Timeout, err)
		}
	}
	c.Prefix = strings.Trim(c.Prefix, "/")
	if c.IdentityFile != "" && strings.HasPrefix(c.IdentityFile, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			c.IdentityFile = filepath.Join(home, c.IdentityFile[2:])
		}
	}
	return c, nil
}
