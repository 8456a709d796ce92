// Package secrets finds credentials in command output and redacts them on
// every path that reaches an agent: digests, zoom views, retrievals, listings,
// MCP results, hook output and JSON forms.
//
// Detection uses a maintained rule set — the default rules of gitleaks
// (github.com/zricethezav/gitleaks/v8: its config/gitleaks.toml, copied here
// byte for byte, checked against the module by a test, and generated into Go
// data in rules_gen.go so that nothing is parsed at run time) — plus rules an
// output stream needs that a repository scanner does not: private-key blocks
// spanning lines, Authorization and Cookie headers, credentials in URLs,
// KEY=value assignments whose key names a secret, cloud connection strings and
// base64-wrapped keys. Everything is lazy: a line is first checked against
// a static table of the rules' keywords; only then is the rule set built,
// and only a rule whose keyword occurs is compiled and run, so output
// without candidates costs one pass over its bytes and loads nothing.
//
// A redaction reads [REDACTED:rule-id:4hex] — the rule and a short hash of the
// value, so two secrets can be told apart and a recurring one recognised — and
// never removes a newline: line numbers and spans stay valid.
//
// Redaction is a pure function of the bytes and the rule set's Version. The
// package never stores, logs or returns a secret's value, and offers no switch
// that turns redaction off: showing exact bytes to a person is the caller's
// decision (ctx get --reveal, at a terminal only).
package secrets
