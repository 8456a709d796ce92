package bench

import (
	_ "embed"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strings"
)

// SecretFormat is one kind of credential: its provider, the shape of a value
// (generated: the corpus holds no real secret) and how programs print it.
type SecretFormat struct {
	Provider string
	ID       string
	Env      string // the variable it usually lives in
	gen      func(r *rand.Rand) string
	// Free is how it appears in free text (%s is the value); "" prints it
	// as Env=value.
	Free string
}

// Planted is one secret planted in a document.
type Planted struct {
	Format  *SecretFormat
	Context string
	Value   string // what must never show
	Full    string // the whole value as generated (a URL around a password)
}

// SecretDoc is one realistic output with secrets planted in it.
type SecretDoc struct {
	Name    string
	Text    string
	Planted []Planted
}

const (
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lowerC = "abcdefghijklmnopqrstuvwxyz"
	digits = "0123456789"
	alnum  = upper + lowerC + digits
	hexC   = "0123456789abcdef"
	b64    = alnum + "+/"
	urlC   = alnum + "-_"
)

// core marks the secret inside a larger value (the password of a URL):
// that part is what must never show.
func core(s string) string { return "\x01" + s + "\x02" }

// split removes core's marks and returns the value and its secret part.
func split(v string) (string, string) {
	i, j := strings.IndexByte(v, 1), strings.IndexByte(v, 2)
	if i < 0 || j < i {
		return v, v
	}
	return v[:i] + v[i+1:j] + v[j+1:], v[i+1 : j]
}

func pick(r *rand.Rand, set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[r.IntN(len(set))]
	}
	return string(b)
}

// g builds a generator from parts: literal text and {set:n} fields.
func g(parts ...any) func(r *rand.Rand) string {
	return func(r *rand.Rand) string {
		var sb strings.Builder
		for _, p := range parts {
			switch v := p.(type) {
			case string:
				sb.WriteString(v)
			case f:
				sb.WriteString(pick(r, v.set, v.n))
			}
		}
		return sb.String()
	}
}

type f struct {
	set string
	n   int
}

func uuid(r *rand.Rand) string {
	return pick(r, hexC, 8) + "-" + pick(r, hexC, 4) + "-4" + pick(r, hexC, 3) + "-a" + pick(r, hexC, 3) + "-" + pick(r, hexC, 12)
}

func pemBlock(label string, lines int) func(r *rand.Rand) string {
	return func(r *rand.Rand) string {
		var sb strings.Builder
		sb.WriteString("-----BEGIN " + label + "-----\n")
		for i := 0; i < lines; i++ {
			sb.WriteString(pick(r, b64, 64) + "\n")
		}
		sb.WriteString(pick(r, b64, 20) + "==\n-----END " + label + "-----")
		return sb.String()
	}
}

func jwt(r *rand.Rand) string {
	head := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	body := base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf(`{"sub":"%d","name":"svc-%s","iat":%d}`, r.IntN(1e9), pick(r, lowerC, 6), 1.7e9+r.IntN(1e7))))
	return head + "." + body + "." + pick(r, urlC, 43)
}

// SecretFormats are the credential formats the corpus plants: shapes from
// the providers' documentation.
var SecretFormats = []*SecretFormat{
	{Provider: "aws", ID: "aws-access-key-id", Env: "AWS_ACCESS_KEY_ID", gen: g("AKIA", f{"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16})},
	{Provider: "aws", ID: "aws-secret-access-key", Env: "AWS_SECRET_ACCESS_KEY", gen: g(f{b64, 40})},
	{Provider: "aws", ID: "aws-session-token", Env: "AWS_SESSION_TOKEN", gen: g("IQoJb3JpZ2luX2VjE", f{b64, 180})},
	{Provider: "github", ID: "github-pat", Env: "GITHUB_TOKEN", gen: g("ghp_", f{alnum, 36}), Free: "remote: using token %s for https://github.com/acme/api.git"},
	{Provider: "github", ID: "github-fine-grained-pat", Env: "GH_TOKEN", gen: g("github_pat_", f{alnum, 22}, "_", f{alnum, 59}), Free: "gh auth status: token %s"},
	{Provider: "github", ID: "github-oauth", Env: "GITHUB_OAUTH_TOKEN", gen: g("gho_", f{alnum, 36}), Free: "oauth token gho: %s"},
	{Provider: "github", ID: "github-app-token", Env: "GITHUB_APP_TOKEN", gen: g("ghs_", f{alnum, 36}), Free: "git clone https://x-access-token:%s@github.com/acme/api.git"},
	{Provider: "github", ID: "github-refresh-token", Env: "GITHUB_REFRESH_TOKEN", gen: g("ghr_", f{alnum, 36})},
	{Provider: "gitlab", ID: "gitlab-pat", Env: "GITLAB_TOKEN", gen: g("glpat-", f{urlC, 20}), Free: "curl --header \"PRIVATE-TOKEN: %s\" https://gitlab.example.com/api/v4/projects"},
	{Provider: "gitlab", ID: "gitlab-runner-token", Env: "CI_RUNNER_TOKEN", gen: g("glrt-", f{urlC, 20})},
	{Provider: "gitlab", ID: "gitlab-trigger-token", Env: "TRIGGER_TOKEN", gen: g("glptt-", f{hexC, 40})},
	{Provider: "slack", ID: "slack-bot-token", Env: "SLACK_BOT_TOKEN", gen: g("xoxb-", f{digits, 11}, "-", f{digits, 13}, "-", f{alnum, 24}), Free: "slack: posting with %s"},
	{Provider: "slack", ID: "slack-user-token", Env: "SLACK_USER_TOKEN", gen: g("xoxp-", f{digits, 11}, "-", f{digits, 12}, "-", f{digits, 13}, "-", f{hexC, 32})},
	{Provider: "slack", ID: "slack-webhook", Env: "SLACK_WEBHOOK_URL", gen: g("https://hooks.slack.com/services/T", f{upper + digits, 10}, "/B", f{upper + digits, 10}, "/", f{alnum, 24}), Free: "POST %s -> 200"},
	{Provider: "stripe", ID: "stripe-secret-key", Env: "STRIPE_SECRET_KEY", gen: g("sk_live_", f{alnum, 99}), Free: "stripe.api_key set to %s"},
	{Provider: "stripe", ID: "stripe-restricted-key", Env: "STRIPE_RESTRICTED_KEY", gen: g("rk_live_", f{alnum, 24})},
	{Provider: "stripe", ID: "stripe-test-key", Env: "STRIPE_TEST_KEY", gen: g("sk_test_", f{alnum, 24})},
	{Provider: "google", ID: "gcp-api-key", Env: "GOOGLE_API_KEY", gen: g("AIza", f{urlC, 35}), Free: "GET https://maps.googleapis.com/maps/api/geocode/json?address=x&key=%s"},
	{Provider: "google", ID: "gcp-oauth-client-secret", Env: "GOOGLE_CLIENT_SECRET", gen: g("GOCSPX-", f{urlC, 28})},
	{Provider: "google", ID: "gcp-service-account-key", Env: "", gen: func(r *rand.Rand) string {
		return `-----BEGIN PRIVATE KEY-----\n` + pick(r, b64, 64) + `\n` + pick(r, b64, 64) + `\n` + pick(r, b64, 40) + `\n-----END PRIVATE KEY-----\n`
	}, Free: `  "private_key": "%s",`},
	{Provider: "openai", ID: "openai-project-key", Env: "OPENAI_API_KEY", gen: g("sk-proj-", f{urlC, 74}, "T3BlbkFJ", f{urlC, 74}), Free: "openai.AuthenticationError: Incorrect API key provided: %s"},
	{Provider: "openai", ID: "openai-legacy-key", Env: "OPENAI_KEY", gen: g("sk-", f{alnum, 20}, "T3BlbkFJ", f{alnum, 20})},
	{Provider: "anthropic", ID: "anthropic-api-key", Env: "ANTHROPIC_API_KEY", gen: g("sk-ant-api03-", f{urlC, 93}, "AA"), Free: "anthropic: x-api-key: %s"},
	{Provider: "anthropic", ID: "anthropic-admin-key", Env: "ANTHROPIC_ADMIN_KEY", gen: g("sk-ant-admin01-", f{urlC, 93}, "AA")},
	{Provider: "huggingface", ID: "huggingface-token", Env: "HF_TOKEN", gen: g("hf_", f{upper + lowerC, 34}), Free: "huggingface_hub: logged in with %s"},
	{Provider: "npm", ID: "npm-token", Env: "NPM_TOKEN", gen: g("npm_", f{alnum, 36}), Free: "//registry.npmjs.org/:_authToken=%s"},
	{Provider: "pypi", ID: "pypi-token", Env: "TWINE_PASSWORD", gen: g("pypi-AgEIcHlwaS5vcmc", f{urlC, 70}), Free: "twine upload -u __token__ -p %s dist/*"},
	{Provider: "sendgrid", ID: "sendgrid-api-key", Env: "SENDGRID_API_KEY", gen: g("SG.", f{urlC, 22}, ".", f{urlC, 43}), Free: "sendgrid: mail send with %s failed: 401"},
	{Provider: "twilio", ID: "twilio-api-key", Env: "TWILIO_API_KEY", gen: g("SK", f{hexC, 32})},
	{Provider: "mailgun", ID: "mailgun-api-key", Env: "MAILGUN_API_KEY", gen: g("key-", f{hexC, 32})},
	{Provider: "shopify", ID: "shopify-access-token", Env: "SHOPIFY_ACCESS_TOKEN", gen: g("shpat_", f{hexC, 32}), Free: "X-Shopify-Access-Token: %s"},
	{Provider: "shopify", ID: "shopify-shared-secret", Env: "SHOPIFY_SHARED_SECRET", gen: g("shpss_", f{hexC, 32})},
	{Provider: "digitalocean", ID: "digitalocean-pat", Env: "DIGITALOCEAN_TOKEN", gen: g("dop_v1_", f{hexC, 64}), Free: "doctl auth init --access-token %s"},
	{Provider: "doppler", ID: "doppler-token", Env: "DOPPLER_TOKEN", gen: g("dp.pt.", f{alnum, 43})},
	{Provider: "databricks", ID: "databricks-token", Env: "DATABRICKS_TOKEN", gen: g("dapi", f{hexC, 32}), Free: "databricks-cli: host=https://adb-1.azuredatabricks.net token=%s"},
	{Provider: "dynatrace", ID: "dynatrace-token", Env: "DT_API_TOKEN", gen: g("dt0c01.", f{upper + digits, 24}, ".", f{upper + digits, 64})},
	{Provider: "grafana", ID: "grafana-service-account", Env: "GRAFANA_TOKEN", gen: g("glsa_", f{alnum, 32}, "_", f{hexC, 8})},
	{Provider: "grafana", ID: "grafana-cloud-token", Env: "GRAFANA_CLOUD_TOKEN", gen: g("glc_", f{b64, 80})},
	{Provider: "hashicorp", ID: "vault-token", Env: "VAULT_TOKEN", gen: g("hvs.", f{urlC, 95}), Free: "vault: authenticated, token %s"},
	{Provider: "hashicorp", ID: "terraform-cloud-token", Env: "TFE_TOKEN", gen: g(f{alnum, 14}, ".atlasv1.", f{urlC, 67})},
	{Provider: "pulumi", ID: "pulumi-token", Env: "PULUMI_ACCESS_TOKEN", gen: g("pul-", f{hexC, 40})},
	{Provider: "linear", ID: "linear-api-key", Env: "LINEAR_API_KEY", gen: g("lin_api_", f{alnum, 40})},
	{Provider: "atlassian", ID: "atlassian-api-token", Env: "JIRA_API_TOKEN", gen: g("ATATT3", f{urlC + "=", 186})},
	{Provider: "azure", ID: "azure-storage-connection-string", Env: "AZURE_STORAGE_CONNECTION_STRING", gen: func(r *rand.Rand) string {
		return "DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey=" + core(pick(r, b64, 86)+"==") + ";EndpointSuffix=core.windows.net"
	}, Free: "azure.core.exceptions.ClientAuthenticationError: conn_str=%s"},
	{Provider: "azure", ID: "azure-ad-client-secret", Env: "AZURE_CLIENT_SECRET", gen: g(f{alnum, 3}, "8Q~", f{alnum + "_~.-", 34})},
	{Provider: "azure", ID: "azure-sas-token", Env: "", gen: func(r *rand.Rand) string {
		return "https://acme.blob.core.windows.net/backups/db.tar?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-31T00:00:00Z&sig=" + core(pick(r, alnum, 43)+"%3D")
	}, Free: "az storage copy --source %s"},
	{Provider: "postgres", ID: "postgres-url", Env: "DATABASE_URL", gen: func(r *rand.Rand) string {
		return "postgres://app:" + core(pick(r, alnum, 20)) + "@db.internal:5432/app?sslmode=require"
	}, Free: "psycopg2.OperationalError: could not connect: dsn=%s"},
	{Provider: "mysql", ID: "mysql-url", Env: "MYSQL_URL", gen: func(r *rand.Rand) string {
		return "mysql://root:" + core(pick(r, alnum+"-._~", 18)) + "@127.0.0.1:3306/shop"
	}, Free: "Caused by: java.sql.SQLException: Access denied opening %s"},
	{Provider: "mongodb", ID: "mongodb-srv-url", Env: "MONGO_URI", gen: func(r *rand.Rand) string {
		return "mongodb+srv://svc:" + core(pick(r, alnum, 24)) + "@cluster0.ab1cd.mongodb.net/prod?retryWrites=true"
	}, Free: "pymongo.errors.ServerSelectionTimeoutError: %s"},
	{Provider: "redis", ID: "redis-url", Env: "REDIS_URL", gen: func(r *rand.Rand) string {
		return "redis://:" + core(pick(r, alnum, 32)) + "@cache.internal:6379/0"
	}, Free: "redis.exceptions.ConnectionError: Error connecting to %s"},
	{Provider: "rabbitmq", ID: "amqp-url", Env: "AMQP_URL", gen: func(r *rand.Rand) string {
		return "amqps://worker:" + core(pick(r, alnum, 22)) + "@mq.internal:5671/vhost"
	}},
	{Provider: "sqlserver", ID: "sqlserver-connection-string", Env: "SQL_CONNECTION", gen: func(r *rand.Rand) string {
		return "Server=tcp:sql.internal,1433;Database=orders;User ID=svc;Password=" + core(pick(r, alnum+"!@#", 16)) + ";Encrypt=True"
	}, Free: "System.Data.SqlClient.SqlException: Login failed. ConnectionString: %s"},
	{Provider: "jwt", ID: "jwt", Env: "SESSION_JWT", gen: jwt, Free: "decoded session cookie: %s"},
	{Provider: "openssl", ID: "rsa-private-key", Env: "", gen: pemBlock("RSA PRIVATE KEY", 6)},
	{Provider: "openssh", ID: "openssh-private-key", Env: "", gen: pemBlock("OPENSSH PRIVATE KEY", 5)},
	{Provider: "openssl", ID: "ec-private-key", Env: "", gen: pemBlock("EC PRIVATE KEY", 3)},
	{Provider: "gnupg", ID: "pgp-private-key", Env: "", gen: pemBlock("PGP PRIVATE KEY BLOCK", 5)},
	{Provider: "http", ID: "basic-auth-header", Env: "", gen: func(r *rand.Rand) string {
		return base64.StdEncoding.EncodeToString([]byte("deploy:" + pick(r, alnum, 16)))
	}, Free: "> Authorization: Basic %s"},
	{Provider: "http", ID: "bearer-header", Env: "", gen: g(f{urlC, 40}), Free: "> Authorization: Bearer %s"},
	{Provider: "http", ID: "session-cookie", Env: "", gen: g(f{alnum, 32}), Free: "< Set-Cookie: sessionid=%s; Path=/; HttpOnly; Secure"},
	{Provider: "dotenv", ID: "db-password", Env: "DB_PASSWORD", gen: g(f{alnum + "!@#$%^*", 14})},
	{Provider: "dotenv", ID: "app-secret-key", Env: "SECRET_KEY_BASE", gen: g(f{hexC, 128})},
	{Provider: "docker", ID: "docker-config-auth", Env: "", gen: func(r *rand.Rand) string {
		auth := base64.StdEncoding.EncodeToString([]byte("ci:" + pick(r, alnum, 20)))
		return base64.StdEncoding.EncodeToString([]byte(`{"auths":{"registry.example.com":{"auth":"` + auth + `"}}}`))
	}, Free: "  .dockerconfigjson: %s"},
	{Provider: "kubernetes", ID: "k8s-tls-key", Env: "", gen: func(r *rand.Rand) string {
		return base64.StdEncoding.EncodeToString([]byte("-----BEGIN EC PRIVATE KEY-----\n" + pick(r, b64, 64) + "\n-----END EC PRIVATE KEY-----\n"))
	}, Free: "  tls.key: %s"},
	{Provider: "heroku", ID: "heroku-api-key", Env: "HEROKU_API_KEY", gen: uuid},
	{Provider: "datadog", ID: "datadog-api-key", Env: "DD_API_KEY", gen: g(f{hexC, 32})},
	{Provider: "newrelic", ID: "newrelic-user-key", Env: "NEW_RELIC_API_KEY", gen: g("NRAK-", f{upper + digits, 27})},
	{Provider: "sentry", ID: "sentry-user-token", Env: "SENTRY_AUTH_TOKEN", gen: g("sntryu_", f{hexC, 64})},
	{Provider: "telegram", ID: "telegram-bot-token", Env: "TELEGRAM_BOT_TOKEN", gen: g(f{digits, 10}, ":AA", f{urlC, 33})},
	{Provider: "discord", ID: "discord-bot-token", Env: "DISCORD_BOT_TOKEN", gen: g("MT", f{alnum, 24}, ".", f{urlC, 6}, ".", f{urlC, 38})},
	{Provider: "square", ID: "square-access-token", Env: "SQUARE_ACCESS_TOKEN", gen: g("EAAA", f{urlC, 60})},
	{Provider: "planetscale", ID: "planetscale-token", Env: "PLANETSCALE_TOKEN", gen: g("pscale_tkn_", f{urlC, 43})},
	{Provider: "postman", ID: "postman-api-key", Env: "POSTMAN_API_KEY", gen: g("PMAK-", f{hexC, 24}, "-", f{hexC, 34})},
	{Provider: "flyio", ID: "flyio-token", Env: "FLY_API_TOKEN", gen: g("fo1_", f{urlC, 43})},
	{Provider: "age", ID: "age-secret-key", Env: "", gen: g("AGE-SECRET-KEY-1", f{"QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58}), Free: "# created: 2026-11-30\n# public key: age1example\n%s"},
	{Provider: "alibaba", ID: "alibaba-access-key", Env: "ALIBABA_CLOUD_ACCESS_KEY_ID", gen: g("LTAI", f{alnum, 20})},
	{Provider: "okta", ID: "okta-api-token", Env: "", gen: g("00", f{urlC, 40}), Free: "> Authorization: SSWS %s"},
	{Provider: "shippo", ID: "shippo-token", Env: "SHIPPO_API_TOKEN", gen: g("shippo_live_", f{hexC, 40})},
	{Provider: "rubygems", ID: "rubygems-api-key", Env: "GEM_HOST_API_KEY", gen: g("rubygems_", f{hexC, 48})},
	{Provider: "prefect", ID: "prefect-api-key", Env: "PREFECT_API_KEY", gen: g("pnu_", f{alnum, 36})},
	{Provider: "cloudflare", ID: "cloudflare-api-token", Env: "CLOUDFLARE_API_TOKEN", gen: g(f{urlC, 40})},
	{Provider: "netrc", ID: "netrc-password", Env: "", gen: g(f{alnum, 18}), Free: "machine api.example.com login deploy password %s"},
	{Provider: "generic", ID: "cli-password-flag", Env: "", gen: g(f{alnum, 16}), Free: "+ mysqldump --host=db --user=backup --password=%s shop"},
	{Provider: "generic", ID: "cli-token-argument", Env: "", gen: g(f{alnum, 20}), Free: "vault login -method=token --token %s"},
}

//go:embed testdata/secrets/lookalikes.txt
var lookalikes string

// Lookalikes are real outputs of this machine that look like secrets and
// are not (testdata/secrets/README.md says how they were made).
func Lookalikes() []string {
	return strings.Split(strings.TrimRight(lookalikes, "\n"), "\n")
}

// SecretDocs plants every format in every output it fits, a few per
// document so that each document's digest shows it whole. The same seed
// gives the same documents.
func SecretDocs(seed uint64) []SecretDoc {
	r := rand.New(rand.NewPCG(seed, seed^0x5ec2e7))
	var docs []SecretDoc
	const per = 3
	for _, c := range secretContexts {
		var fits []*SecretFormat
		for _, sf := range SecretFormats {
			if c.fits(sf) {
				fits = append(fits, sf)
			}
		}
		for i := 0; i < len(fits); i += per {
			group := fits[i:min(i+per, len(fits))]
			var planted []Planted
			var lines []string
			for _, sf := range group {
				v, secret := split(sf.gen(r))
				shown, text := c.plant(sf, v)
				if shown == v {
					shown = secret
				}
				planted = append(planted, Planted{Format: sf, Context: c.name, Value: shown, Full: v})
				lines = append(lines, text)
			}
			docs = append(docs, SecretDoc{Name: fmt.Sprintf("%s-%02d", c.name, i/per), Text: c.wrap(lines), Planted: planted})
		}
	}
	return docs
}

type secretContext struct {
	name  string
	fits  func(*SecretFormat) bool
	plant func(sf *SecretFormat, v string) (shown, text string)
	wrap  func(lines []string) string
}

func hasEnv(sf *SecretFormat) bool { return sf.Env != "" }

func freeText(sf *SecretFormat, v string) string {
	switch {
	case sf.Free != "":
		return fmt.Sprintf(sf.Free, v)
	case sf.Env == "":
		return v
	}
	return sf.Env + "=" + v
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

var secretContexts = []secretContext{
	{name: "env", fits: hasEnv,
		plant: func(sf *SecretFormat, v string) (string, string) { return v, sf.Env + "=" + v },
		wrap: func(l []string) string {
			return strings.Join(append(append([]string{"HOSTNAME=runner-7f9c", "HOME=/home/runner", "LANG=C.UTF-8"}, l...),
				"PATH=/usr/local/go/bin:/usr/local/bin:/usr/bin:/bin", "GOFLAGS=-mod=readonly", "CI=true"), "\n") + "\n"
		}},
	{name: "docker-inspect", fits: hasEnv,
		plant: func(sf *SecretFormat, v string) (string, string) {
			return v, `                "` + sf.Env + "=" + v + `",`
		},
		wrap: func(l []string) string {
			return "[\n    {\n        \"Id\": \"6f1c0e3a9b2d\",\n        \"Config\": {\n            \"Hostname\": \"api-7d9f\",\n            \"Env\": [\n" +
				strings.Join(l, "\n") + "\n                \"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin\"\n            ],\n" +
				"            \"Image\": \"registry.example.com/api:1.4.2\"\n        }\n    }\n]\n"
		}},
	{name: "kubectl-secret", fits: hasEnv,
		plant: func(sf *SecretFormat, v string) (string, string) {
			enc := base64.StdEncoding.EncodeToString([]byte(v))
			return enc, "  " + strings.ToLower(strings.ReplaceAll(sf.Env, "_", "-")) + ": " + enc
		},
		wrap: func(l []string) string {
			return "apiVersion: v1\ndata:\n" + strings.Join(l, "\n") +
				"\nkind: Secret\nmetadata:\n  name: api-credentials\n  namespace: prod\ntype: Opaque\n"
		}},
	{name: "ci-log", fits: func(*SecretFormat) bool { return true },
		plant: func(sf *SecretFormat, v string) (string, string) {
			return v, indent(freeText(sf, v), "2026-11-30T10:04:12.4417301Z ")
		},
		wrap: func(l []string) string {
			return "2026-11-30T10:04:11.9921042Z ##[group]Run ./scripts/deploy.sh\n" + strings.Join(l, "\n") +
				"\n2026-11-30T10:04:13.0012210Z ##[endgroup]\n2026-11-30T10:04:13.1022311Z ##[error]Process completed with exit code 1.\n"
		}},
	{name: "go-test", fits: func(*SecretFormat) bool { return true },
		plant: func(sf *SecretFormat, v string) (string, string) {
			return v, "    config_test.go:48: loaded: " + strings.ReplaceAll(freeText(sf, v), "\n", "\n        ")
		},
		wrap: func(l []string) string {
			return "=== RUN   TestLoadConfig\n" + strings.Join(l, "\n") +
				"\n    config_test.go:52: want 3 providers, got 2\n--- FAIL: TestLoadConfig (0.00s)\nFAIL\nFAIL\texample.com/api/config\t0.012s\n"
		}},
	{name: "stack-trace", fits: func(sf *SecretFormat) bool {
		return strings.Contains(sf.ID, "url") || strings.Contains(sf.ID, "connection")
	},
		plant: func(sf *SecretFormat, v string) (string, string) {
			return v, `  File "/app/db.py", line 31, in connect` + "\n" + `    engine = create_engine("` + v + `")`
		},
		wrap: func(l []string) string {
			return "Traceback (most recent call last):\n" + strings.Join(l, "\n") +
				"\nsqlalchemy.exc.OperationalError: connection refused\n"
		}},
}
