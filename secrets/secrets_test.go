package secrets

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// Fakes, built so that no credential-shaped literal sits in the source.
var (
	fakeAWS  = "AKIA" + "Q7XV2MZKD4WN3RTY"
	fakeGH   = "ghp_" + "R8x2Lq0VnT4wKz7YbP1cJ9mH3sD6fG5aE0uN"
	fakePEM  = "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\nLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo\n-----END RSA " + "PRIVATE KEY-----\n"
	fakePass = "Xk29vLq0pRt7"
)

func TestTextRedacts(t *testing.T) {
	for _, tc := range []struct {
		in, secret, rule string
	}{
		{"AWS_ACCESS_KEY_ID=" + fakeAWS, fakeAWS, "aws-access-token"},
		{"remote: using " + fakeGH, fakeGH, "github-pat"},
		{"DB_PASSWORD=" + fakePass, fakePass, "secret-assignment"},
		{`{"password": "` + fakePass + `", "user": "app"}`, fakePass, "secret-assignment"},
		{"postgres://app:" + fakePass + "@db:5432/app", fakePass, "url-credentials"},
		{"> Authorization: Bearer " + fakePass + "abcdEFGH", fakePass, "authorization-header"},
		{"mysqldump --password=" + fakePass + " shop", fakePass, "secret-assignment"},
		{"+ vault login -method=token --token " + fakePass, fakePass, "secret-flag"},
		{"DB_PASSWORD=$" + fakePass, fakePass, "secret-assignment"},
		{"> Authorization: Basic ZGVwbG95OlhrMjl2THEwcFJ0Nw==", "ZGVwbG95OlhrMjl2THEwcFJ0Nw==", "authorization-header"},
		// A scheme the rule does not know, before a token.
		{"< Proxy-Authorization: Custom " + fakePass + "abcd", fakePass, "authorization-header"},
		{"password=hunter2 user=app", "hunter2", "secret-assignment"},
		// Digest authentication: the response is the credential's proof.
		{`> Authorization: Digest username="Mufasa", realm="http2auth@example.org", nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", uri="/dir/index.html", qop=auth, nc=00000001, cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", response="8ca523f5e9506fed4657c9700eebdbec", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`,
			"8ca523f5e9506fed4657c9700eebdbec", "authorization-header"},
		{`'Proxy-Authorization': 'Digest username="app", realm="r", nonce="abc", uri="/", algorithm=SHA-256, response=753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1'`,
			"753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1", "authorization-header"},
		// An environment variable set to a word is still a password.
		{"POSTGRES_PASSWORD=postgres", "postgres", "secret-assignment"},
		// A passphrase of words run together.
		{"password=correcthorsebatterystaple", "correcthorsebatterystaple", "secret-assignment"},
		// A key line without its BEGIN line (a log item in JSON).
		{`      "text": "2026-11-30T10:04:12Z ` + strings.Split(fakePEM, "\n")[2] + `",`, strings.Split(fakePEM, "\n")[2], "private-key"},
	} {
		out, counts := Text([]byte(tc.in))
		if bytes.Contains(out, []byte(tc.secret)) || counts[tc.rule] != 1 {
			t.Errorf("%q → %q %v, want %s redacted", tc.in, out, counts, tc.rule)
		}
		if again, _ := Text(out); !bytes.Equal(again, out) {
			t.Errorf("redacting twice changed %q to %q", out, again)
		}
	}
}

func TestLookalikesSurvive(t *testing.T) {
	for _, l := range []string{
		"commit 0b84b4bfc866a04b18e367b523d16adaf85f8033",
		"golang.org/x/sys v0.50.0 h1:Mv2mzuHuZuY2+bkyWXIHMfhNdJAdwW3FuWeCPYN5GVQ=",
		"3f1c2a9e-0b7d-4c55-9e21-77a1f3c2d4b8",
		"sha256:4f1c0a9e2b77ba3d1020ee8f4f1c0a9e2b77ba3d1020ee8f4f1c0a9e2b77ba3d",
		"--- PASS: TestTokenRefresh/expired_key_4f1c0a9e (0.00s)",
		"run:ba3d1020ee8f · exit 0 · gotest/1 · pass-summary",
		"secrets: redact keys in digests",
		"max_tokens=4096 api_key_id=12 public_key=ssh-ed25519",
		"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICXb8xIPMdXZUKsRKgd3KQwoPaLKkp/NWbMShsb01Jrx dev@host",
		"DB_PASSWORD=$DB_PASS",
		// Ordinary words where a credential could be: a status, prose.
		"Authorization: unknown scheme",
		"> Authorization: required for this endpoint",
		"auth: authorization: none configured",
		"password=unknown",
		"level=warn msg=\"login rejected\" user=app password=missing",
		"password: Invalid",
		"-----BEGIN CERTIFICATE-----\nMIIBfzCCASWgAwIBAgIUZuXkCkRMIUV9azdMZJ53ngqDrS4wCgYIKoZIzj0EAwIw\n-----END CERTIFICATE-----",
	} {
		if out, counts := Text([]byte(l)); counts != nil {
			t.Errorf("look-alike redacted: %q → %q", l, out)
		}
	}
}

// A key block keeps its lines (and so every line number after it); a
// reader that starts inside the block still redacts it when primed.
func TestKeyBlockKeepsLines(t *testing.T) {
	text := "before\n" + fakePEM + "after\n"
	out, counts := Text([]byte(text))
	if strings.Count(string(out), "\n") != strings.Count(text, "\n") {
		t.Fatalf("line count changed:\n%s", out)
	}
	if strings.Contains(string(out), "MIIEow") || counts["private-key"] != 1 || !strings.Contains(string(out), "BEGIN RSA PRIVATE KEY") {
		t.Fatalf("%v\n%s", counts, out)
	}
	lines := strings.Split(text, "\n")
	r := NewReader(strings.NewReader(strings.Join(lines[3:], "\n")))
	for _, l := range lines[:3] {
		r.Prime([]byte(l))
	}
	got, _ := io.ReadAll(r)
	if strings.Contains(string(got), lines[3]) {
		t.Errorf("a range starting inside the block showed it:\n%s", got)
	}
}

type section []byte

func (s section) Section(off, end int64) io.Reader { return bytes.NewReader(s[off:end]) }
func (s section) Size() int64                      { return int64(len(s)) }

// A byte range that cuts a secret shows its marker, not the part inside.
func TestRedactSectionCut(t *testing.T) {
	text := section("x\nGITHUB_TOKEN=" + fakeGH + " done\ny\n")
	cut := int64(strings.Index(string(text), fakeGH) + 10)
	for _, rng := range [][2]int64{{0, cut}, {cut, int64(len(text))}, {cut - 4, cut + 4}} {
		r, err := RedactSection(text, rng[0], rng[1])
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(r)
		if bytes.Contains(got, []byte(fakeGH[8:16])) || bytes.Contains(got, []byte(fakeGH[12:20])) || !bytes.Contains(got, []byte("[REDACTED:")) {
			t.Errorf("bytes %v: %q", rng, got)
		}
	}
}

func TestArgv(t *testing.T) {
	in := []string{"psql", "--password", fakePass, "-h", "db", "curl", "-u", "me:" + fakePass, "--token=" + fakeGH}
	out := strings.Join(Argv(in), " ")
	if strings.Contains(out, fakePass) || strings.Contains(out, fakeGH) || !strings.Contains(out, "-h db") {
		t.Errorf("%s", out)
	}
	if plain := []string{"go", "test", "./..."}; &Argv(plain)[0] != &plain[0] {
		t.Error("an argv with no secret was copied")
	}
}

func TestCount(t *testing.T) {
	text := []byte("a [REDACTED:jwt:1a2b] b [REDACTED:jwt:1a2b] [REDACTED:jwt:ffff] [REDACTED:github-pat:0000]")
	got := Count(text)
	if got["jwt"] != 2 || got["github-pat"] != 1 {
		t.Errorf("%v", got)
	}
}

// Digest authentication: only response= goes; the parameters that are no
// secret (username, realm, nonce, cnonce, opaque) stay readable.
func TestDigestAuthKeepsParameters(t *testing.T) {
	in := `Authorization: Digest username="admin", realm="x", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", uri="/", response="6629fae49393a05397450978507c4ef1", cnonce="0a4f113b", opaque="5ccc069c403ebaf9f0171e9517f40e41"`
	out, counts := Text([]byte(in))
	want := strings.Replace(in, "6629fae49393a05397450978507c4ef1", "[REDACTED:authorization-header:", 1)
	if counts["authorization-header"] != 1 || !strings.HasPrefix(string(out), want[:strings.Index(want, "[")+len("[REDACTED:authorization-header:")]) ||
		!strings.HasSuffix(string(out), `", cnonce="0a4f113b", opaque="5ccc069c403ebaf9f0171e9517f40e41"`) {
		t.Errorf("%s\n→ %s %v", in, out, counts)
	}
}
