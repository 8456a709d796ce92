package secrets

import (
	"bytes"
	"encoding/base64"
	"regexp"
	"strings"
	"sync"
)

// streamRules are what a command's output needs beyond a repository
// scanner's rules: credentials as programs print them (headers, URLs,
// assignments in env dumps and logs, connection strings, wrapped keys).
// It is a literal table of rules, exempt from the function-length limit.
func streamRules() []*rule {
	return []*rule{
		{
			// A key block printed on one line (JSON strings with \n escapes,
			// or a block the renderer clipped). Blocks spanning lines are
			// the Redactor's (see keyBlock).
			id:       "private-key",
			pattern:  `-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----((?:\\[nr]|\s)*[A-Za-z0-9+/][^"'\x60<]*?)(?:-----END|["'\x60<]|$)`,
			keywords: []string{"private key"},
			check:    func(s string) bool { return len(s) >= 16 },
		},
		{
			id:       "authorization-header",
			pattern:  `(?i)\b(?:proxy-)?authorization\b["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|digest|negotiate|ntlm|aws4-hmac-sha256|bot|sso-key|dpop|apikey|api-key|key|ssws|oauth|sharedkey(?:lite)?|gitlab|splunk)\s+)?([^\s"'\x60,;][^"'\x60\r\n]{5,})`,
			keywords: []string{"authorization"},
			check:    authCredential,
		},
		{
			// Digest access authentication (RFC 7616): the scheme's words
			// are parameters, and the credential is response=, the hash
			// computed from the password (username, realm, nonce, cnonce
			// and opaque are not secret and stay).
			id:       "authorization-header",
			pattern:  `(?i)\b(?:proxy-)?authorization\b["']?\s*[:=]\s*["']?digest\s[^\r\n]*?\bresponse\s*=\s*"?([0-9a-f]{32,128})\b`,
			keywords: []string{"authorization"},
		},
		{
			id:       "bearer-token",
			pattern:  `(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{16,})`,
			keywords: []string{"bearer"},
			check:    credentialLike,
		},
		{
			// Cookies carry sessions: the whole header value goes.
			id:       "cookie-header",
			pattern:  `(?i)\b(?:set-)?cookie\b["']?\s*:\s*["']?([^\s"'=;]+=[^"'\x60\r\n]{6,})`,
			keywords: []string{"cookie"},
			check:    func(s string) bool { return !placeholder(s) },
		},
		{
			id:       "url-credentials",
			pattern:  `(?i)\b[a-z][a-z0-9+.-]{1,30}://[^\s:/?#@"'\x60<>\[\]]{0,128}:([^\s/?#@"'\x60<>]{3,256})@[a-z0-9._\[\]-]`,
			keywords: []string{"://"},
			check:    func(s string) bool { return !placeholder(s) },
		},
		{
			id:       "connection-string-key",
			pattern:  `(?i)\b(?:AccountKey|SharedAccessKey|SharedAccessSignature|SharedSecret|ClientSecret)\s*=\s*([^;"'\s]{8,})`,
			keywords: []string{"accountkey", "sharedaccess", "sharedsecret", "clientsecret"},
			check:    func(s string) bool { return !placeholder(s) },
		},
		{
			id:       "sas-signature",
			pattern:  `[?&](?:sig|X-Amz-Signature|X-Goog-Signature|Signature)=([A-Za-z0-9%+/=_-]{20,})`,
			keywords: []string{"sig=", "signature="},
		},
		{
			id:       "netrc-password",
			pattern:  `(?i)\bmachine\s+\S+\s+login\s+\S+\s+password\s+(\S+)`,
			keywords: []string{"machine"},
			check:    func(s string) bool { return !placeholder(s) },
		},
		{
			// A JWT cut short (a clipped line) still carries its header
			// and claims; a whole one is gitleaks' jwt.
			id:       "jwt",
			pattern:  `\b(eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*)?)`,
			keywords: []string{"eyj"},
		},
		{
			// A PEM key block wrapped in base64 (Kubernetes secrets,
			// CI variables).
			id:       "private-key-base64",
			pattern:  `\b(LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2})`,
			keywords: []string{"ls0tls1crudjti"},
			check:    func(s string) bool { return bytes.Contains(decode64(s), []byte("PRIVATE KEY")) },
		},
		{
			// Base64 JSON holding credentials: docker config auths,
			// service-account files.
			id:       "credentials-base64",
			pattern:  `\b(eyJ[A-Za-z0-9+/_-]{30,}={0,2})`,
			keywords: []string{"eyj"},
			check: func(s string) bool {
				d := bytes.ToLower(decode64(s))
				for _, k := range []string{`"auth"`, `"auths"`, `"password"`, `"token"`, `"secret"`, `"private_key"`, `"client_secret"`, `"refresh_token"`} {
					if bytes.Contains(d, []byte(k)) {
						return true
					}
				}
				return false
			},
		},
		{
			// vendor_RandomPart: most providers now prefix their tokens
			// (gsk_, r8_, sbp_, nfp_ …); one gitleaks does not know yet is
			// still a short prefix before a long random run.
			id:      "prefixed-token",
			pattern: `\b((?:[a-z][a-z0-9]{1,9}|[A-Z][A-Z0-9]{2,7})[_-](?:[a-z0-9]{1,10}[_-])?([A-Za-z0-9]{32,}))\b`,
			group:   1,
			pre:     longRun,
			check:   func(s string) bool { return randomRun(s[strings.LastIndexAny(s, "_-")+1:]) },
		},
		{
			// A credential as a URL path segment: webhook URLs, bot
			// tokens (discord.com/api/webhooks/ID/TOKEN, /botID:TOKEN/).
			id:      "url-path-token",
			pattern: `(?i)\bhttps?://[^\s/"'<>]+(?:/[^\s/"'<>?#]*)*?/((?:bot)?[0-9]{0,12}:?[A-Za-z0-9_-]{30,})(?:[/?#"'\s]|$)`,
			pre:     longRun,
			check:   func(s string) bool { return randomRun(strings.TrimLeft(s, "bot0123456789:")) },
		},
		{
			// A flag and its value as separate words, in a command line a
			// log echoes (+ vault login --token VALUE).
			id:       "secret-flag",
			pattern:  `(?i)(?:^|[\s"'])--?(?:[a-z]+-)?(?:password|passwd|pass|pwd|token|secret|api-?key|access-?key|secret-?key|private-?key|client-?secret|passphrase)[ \t]+([^\s"'\x60-][^\s"'\x60]{3,})`,
			keywords: []string{"pass", "pwd", "token", "secret", "key"},
			check:    func(s string) bool { return !placeholder(s) },
		},
		{
			id:       "secret-assignment",
			pattern:  assignmentPattern,
			keywords: []string{"pass", "pwd", "secret", "token", "key", "credential", "auth", "cred"},
			group:    2,
			assign:   1 << 20, // a name runs to any length
		},
	}
}

// assignmentPattern finds NAME=value, NAME: value, "name": "value",
// --name=value and name => value; group 1 is the name, group 2 the value.
const assignmentPattern = `(?i)(?:^|[^A-Za-z0-9_.-])([A-Za-z0-9_.-]*(?:passw(?:or)?d|passwd|passphrase|pwd|secret|token|api[_.-]?key|apikey|access[_.-]?key|private[_.-]?key|credentials?|creds|auth[_.-]?key|signing[_.-]?key|encryption[_.-]?key|master[_.-]?key|session[_.-]?(?:id|key)|[_.-]key)[A-Za-z0-9_.-]*)["']?[ \t]*(?:=|:=|=>|:)[ \t]*["']?([^\s"'\x60,;&<>{}()\[\]]{4,})`

var (
	strongName = lazy(`(?i)passw(?:or)?d|passwd|passphrase|pwd|secret|private[_.-]?key|credential|creds|signing[_.-]?key|encryption[_.-]?key|master[_.-]?key`)
	mediumName = lazy(`(?i)token|api[_.-]?key|apikey|access[_.-]?key|auth[_.-]?key|session[_.-]?(?:id|key)`)
	// notSecretName are names that only talk about a secret: its length,
	// file, id, kind, or a count of tokens.
	notSecretName = lazy(`(?i)(?:^|[_.-])(?:id|ids|file|path|dir|url|uri|endpoint|name|names|len|length|size|type|kind|count|enabled|expires?|expiry|expiration|ttl|timeout|policy|version|header|prefix|suffix|env|max|min|required|format|alg|algorithm|mode|field|param|hash|ref|arn|type|usage|limit|index|idx|count|refresh|duration|lifetime|rotation|valid|validation|scope|scopes|provider|store|storage|manager|helper|class|method|style)$|tokens|tokeni[sz]|keyboard|keyword|keystroke|keychain|primary[_.-]?key|foreign[_.-]?key|public[_.-]?key|pubkey|sort[_.-]?key|cache[_.-]?key|partition[_.-]?key|hotkey|monkey|turkey|donkey|jockey|hockey|passed|passes|passing|bypass|passthrough|compass|surpass|author|oauth[_.-]?(?:url|uri)|csrf`)
	hexOnly       = lazy(`^[0-9a-fA-F]+$`)
	lowerWord     = lazy(`^[a-z]+$`)
	// word is a value spelled like a word of prose (unknown, Invalid),
	// not like a generated or chosen secret.
	word = lazy(`^[A-Za-z][a-z]{0,14}$`)
	// envName is an environment variable's name (POSTGRES_PASSWORD).
	envName      = lazy(`^[A-Z][A-Z0-9_]*$`)
	passwordName = lazy(`(?i)passw(?:or)?d|passwd|passphrase|pwd`)
)

// assignment decides whether a NAME=value pair holds a secret.
func assignment(name, value string, sep byte) bool {
	if placeholder(value) || notSecretName().MatchString(name) {
		return false
	}
	switch {
	case strongName().MatchString(name):
		// "secrets: redact keys" is a commit subject, not a secret: a
		// lower-case word after a colon is prose unless the name is a
		// password's.
		if sep == ':' && lowerWord().MatchString(value) && !passwordName().MatchString(name) {
			return false
		}
		// password=unknown in a log reports a state. An environment
		// variable set to a word (POSTGRES_PASSWORD=postgres) is the
		// password someone chose, and a long run of letters a passphrase.
		if word().MatchString(value) && !(sep == '=' && envName().MatchString(name)) {
			return false
		}
		return len(value) >= 4 && !isNumber(value) || len(value) >= 6
	case mediumName().MatchString(name):
		return len(value) >= 12 && entropy(value) > 3 && !isNumber(value)
	default: // FOO_KEY, foo.key
		if len(value) < 16 || entropy(value) <= 3.5 || isNumber(value) {
			return false
		}
		// A 40- or 64-digit hex value under a bare *_KEY name is a
		// fingerprint or a digest (GPG_KEY in container images).
		if hexOnly().MatchString(value) && (len(value) == 40 || len(value) == 64) {
			return false
		}
		return true
	}
}

var placeholderRE = lazy(`(?i)^(?:<[^>]*>?|\$\{?(?-i:[A-Z_][A-Z0-9_]*|[a-z_][a-z0-9_]*)\}?|\$\{\{.*|\{\{.*|%[A-Za-z_]+%|\*+|x{3,}|\.{3,}|…|\[redacted.*|redacted|\(redacted\)|masked|hidden|none|null|nil|undefined|true|false|yes|no|on|off|required|optional|string|str|bool|int|changeme|change_me|changeit|secret|password|passwd|token|example|sample|dummy|your[_-].*|my[_-]?(?:password|secret|token).*|test|testing|placeholder|todo|tbd|env|value|default|empty|unset|n/a|-+)$`)

// placeholder reports values that stand for a secret without being one.
func placeholder(v string) bool {
	v = strings.Trim(v, `"'`+"`")
	if v == "" || placeholderRE().MatchString(v) || strings.HasPrefix(v, "[REDACTED:") {
		return true
	}
	// One repeated character (xxxxxxxx, 00000000).
	return strings.Count(v, v[:1]) == len(v)
}

// credentialLike is a header or token value that could be a credential:
// long enough and not a word.
func credentialLike(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) < 8 || placeholder(s) {
		return false
	}
	var lo, up, dig, sym bool
	for _, c := range s {
		switch {
		case 'a' <= c && c <= 'z':
			lo = true
		case 'A' <= c && c <= 'Z':
			up = true
		case '0' <= c && c <= '9':
			dig = true
		default:
			sym = true
		}
	}
	n := 0
	for _, b := range []bool{lo, up, dig, sym} {
		if b {
			n++
		}
	}
	return n >= 2 && entropy(s) > 2.5
}

// authCredential is an Authorization header's value that holds a
// credential: its first word is one (the rule's pattern has taken a known
// scheme off), or its first word is a scheme the pattern does not know and
// the second is one. "unknown scheme" and "required for this endpoint" are
// words, and a URL is no credential.
func authCredential(s string) bool {
	f := strings.Fields(s)
	token := func(i int) bool {
		t := strings.TrimRight(f[i], ",;")
		return !strings.Contains(t, "://") && credentialLike(t) && strings.ContainsAny(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
	}
	switch {
	case len(f) == 0:
		return false
	case token(0):
		return true
	}
	return len(f) > 1 && schemeWord().MatchString(f[0]) && token(1)
}

var schemeWord = lazy(`^[A-Za-z][A-Za-z0-9-]{1,30}$`)

// longRun is a cheap test that a line holds 30 or more token characters
// in a row, before the regexps of the rules that need one run.
func longRun(line []byte) bool {
	n := 0
	for _, c := range line {
		if tokenByte(c) {
			n++
			if n >= 30 {
				return true
			}
		} else {
			n = 0
		}
	}
	return false
}

// hasLongRun is longRun by skipping: a run of 30 starting in a window of 30
// bytes holds the window's last byte, so the window's last non-token byte
// (looked for from its end) rules out every start up to it. Text with a
// separator every few bytes is passed reading a fraction of its bytes.
func hasLongRun(text []byte) bool {
	const n = 30
	for p := 0; p+n <= len(text); {
		q := p + n - 1
		for q >= p && tokenByte(text[q]) {
			q--
		}
		if q < p {
			return true
		}
		p = q + 1
	}
	return false
}

func tokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// randomRun is a run of characters that looks generated: long, mixing
// upper case, lower case and digits, with high entropy, and not hex (a
// digest, a git SHA).
func randomRun(s string) bool {
	if len(s) < 30 || hexOnly().MatchString(s) {
		return false
	}
	var lo, up, dig int
	for _, c := range s {
		switch {
		case 'a' <= c && c <= 'z':
			lo++
		case 'A' <= c && c <= 'Z':
			up++
		case '0' <= c && c <= '9':
			dig++
		}
	}
	return lo > 0 && up > 0 && dig > 0 && entropy(s) > 4.2
}

// lazy compiles a pattern on first use: no regexp is compiled when ctx
// starts, only when a line is redacted.
func lazy(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

func isNumber(s string) bool {
	for _, c := range s {
		if (c < '0' || c > '9') && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

// decode64 decodes standard or URL-safe base64, padded or not; it returns
// nil when s is neither.
func decode64(s string) []byte {
	s = strings.TrimRight(s, "=")
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b
		}
		// A clipped value: decode the longest whole prefix.
		if n := len(s) / 4 * 4; n > 0 {
			if b, err := enc.DecodeString(s[:n]); err == nil {
				return b
			}
		}
	}
	return nil
}
