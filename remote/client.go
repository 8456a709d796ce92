package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync/atomic"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/ctxhq/ctx/store"
)

// Remote is an open connection to the shared tier.
type Remote struct {
	cfg    *Config
	mc     *minio.Client
	seal   *sealer // nil: objects are stored as they are
	prefix string
	// Requests counts what was asked of the server, for the figures and tests.
	Requests Counters
}

// Counters are request and byte counts.
type Counters struct {
	Gets, RangeGets, Puts, Heads, Lists, Deletes atomic.Int64
	BytesIn, BytesOut                            atomic.Int64
}

// Open connects to the configured remote. Nothing is sent until the first
// request.
func Open(cfg *Config) (*Remote, error) {
	host, secure, err := endpointHost(cfg.Endpoint)
	if err != nil {
		return nil, err
	}
	timeout, err := cfg.timeout()
	if err != nil {
		return nil, err
	}
	tr, err := newTransport(secure, timeout)
	if err != nil {
		return nil, fmt.Errorf("remote %s: %w", cfg.Endpoint, err)
	}
	mc, err := minio.New(host, &minio.Options{
		Creds:     credentials.NewChainCredentials(credentialChain()),
		Secure:    secure,
		Region:    cfg.Region,
		Transport: tr,
	})
	if err != nil {
		return nil, fmt.Errorf("remote %s: %w", cfg.Endpoint, err)
	}
	r := &Remote{cfg: cfg, mc: mc, prefix: cfg.Prefix}
	if len(cfg.Recipients) > 0 || cfg.IdentityFile != "" {
		if r.seal, err = newSealer(cfg.Recipients, cfg.IdentityFile); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// credentialChain is the standard AWS order: the environment, the shared
// credentials file (AWS_PROFILE), then the instance's role.
func credentialChain() []credentials.Provider {
	return []credentials.Provider{
		&credentials.EnvAWS{},
		&credentials.FileAWSCredentials{},
		&credentials.IAM{Client: &http.Client{Transport: http.DefaultTransport}},
	}
}

func endpointHost(ep string) (host string, secure bool, err error) {
	if !strings.Contains(ep, "://") {
		return ep, true, nil
	}
	u, err := url.Parse(ep)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", false, fmt.Errorf("remote endpoint %q: want host:port or an http(s) URL", ep)
	}
	return u.Host, u.Scheme == "https", nil
}

// Config is the configuration the remote was opened with.
func (r *Remote) Config() *Config { return r.cfg }

// Encrypted reports whether objects are sealed with age.
func (r *Remote) Encrypted() bool { return r.seal != nil && r.seal.canSeal() }

func (r *Remote) key(parts ...string) string {
	return path.Join(append([]string{r.prefix}, parts...)...)
}

// errExists is returned by putNew when the object is there already.
var errExists = errors.New("object exists")

// putNew writes an object that must not exist (If-None-Match: *). Content
// addressing makes the object already there the same content, so callers
// treat errExists as success.
func (r *Remote) putNew(ctx context.Context, key string, data []byte) error {
	opts := minio.PutObjectOptions{DisableContentSha256: false, SendContentMd5: false}
	opts.SetMatchETagExcept("*")
	err := r.put(ctx, key, bytes.NewReader(data), int64(len(data)), opts)
	if isPrecondition(err) {
		return errExists
	}
	return err
}

// putOver writes an object, replacing one there.
func (r *Remote) putOver(ctx context.Context, key string, data []byte) error {
	return r.put(ctx, key, bytes.NewReader(data), int64(len(data)), minio.PutObjectOptions{})
}

func (r *Remote) put(ctx context.Context, key string, body io.Reader, size int64, opts minio.PutObjectOptions) error {
	r.Requests.Puts.Add(1)
	if opts.ContentType == "" {
		opts.ContentType = "application/octet-stream"
	}
	opts.PartSize = partSize
	_, err := r.mc.PutObject(ctx, r.cfg.Bucket, key, body, size, opts)
	if err != nil {
		return r.wrap("put", key, err)
	}
	r.Requests.BytesOut.Add(size)
	return nil
}

// partSize is the part size of multipart uploads (objects larger than it).
const partSize = 64 << 20

// get reads a whole object.
func (r *Remote) get(ctx context.Context, key string) ([]byte, error) {
	r.Requests.Gets.Add(1)
	obj, err := r.mc.GetObject(ctx, r.cfg.Bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, r.wrap("get", key, err)
	}
	defer obj.Close()
	b, err := io.ReadAll(obj)
	if err != nil {
		return nil, r.wrap("get", key, err)
	}
	r.Requests.BytesIn.Add(int64(len(b)))
	return b, nil
}

// getRange reads n bytes of an object from off: one ranged GET.
func (r *Remote) getRange(ctx context.Context, key string, off, n int64) ([]byte, error) {
	body, err := r.openRange(ctx, key, off, n)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	b, err := io.ReadAll(io.LimitReader(body, n+1))
	if err != nil {
		return nil, r.wrap("get", key, err)
	}
	r.Requests.BytesIn.Add(int64(len(b)))
	if int64(len(b)) != n {
		return nil, fmt.Errorf("remote %s: asked for %d bytes at %d, got %d: %w", key, n, off, len(b), store.ErrCorrupt)
	}
	return b, nil
}

// openRange opens n bytes of an object from off for reading as they arrive:
// one ranged GET. The caller closes the body (and counts the bytes it read).
func (r *Remote) openRange(ctx context.Context, key string, off, n int64) (io.ReadCloser, error) {
	r.Requests.RangeGets.Add(1)
	opts := minio.GetObjectOptions{}
	if err := opts.SetRange(off, off+n-1); err != nil {
		return nil, err
	}
	// Core's GetObject is one request; Client.GetObject would first ask
	// for the object's size.
	body, _, _, err := minio.Core{Client: r.mc}.GetObject(ctx, r.cfg.Bucket, key, opts)
	if err != nil {
		return nil, r.wrap("get", key, err)
	}
	return body, nil
}

// exists reports whether an object exists (HEAD).
func (r *Remote) exists(ctx context.Context, key string) (bool, error) {
	r.Requests.Heads.Add(1)
	_, err := r.mc.StatObject(ctx, r.cfg.Bucket, key, minio.StatObjectOptions{})
	if err == nil {
		return true, nil
	}
	if isNotFoundErr(err) {
		return false, nil
	}
	return false, r.wrap("stat", key, err)
}

// object is one listed object.
type object struct {
	Key  string
	Size int64
	Age  int64 // seconds since it was written
}

// list returns the objects whose keys start with prefix (relative to the
// configured prefix).
func (r *Remote) list(ctx context.Context, prefix string, now func() int64) ([]object, error) {
	r.Requests.Lists.Add(1)
	full := r.key(prefix)
	if strings.HasSuffix(prefix, "/") {
		full += "/"
	}
	var out []object
	for o := range r.mc.ListObjects(ctx, r.cfg.Bucket, minio.ListObjectsOptions{Prefix: full, Recursive: true}) {
		if o.Err != nil {
			return nil, r.wrap("list", full, o.Err)
		}
		rel := strings.TrimPrefix(o.Key, r.prefix+"/")
		age := int64(0)
		if now != nil {
			age = now() - o.LastModified.Unix()
		}
		out = append(out, object{Key: rel, Size: o.Size, Age: age})
	}
	return out, nil
}

// remove deletes an object.
func (r *Remote) remove(ctx context.Context, key string) error {
	r.Requests.Deletes.Add(1)
	return r.wrap("delete", key, r.mc.RemoveObject(ctx, r.cfg.Bucket, key, minio.RemoveObjectOptions{}))
}

// EnsureBucket creates the bucket when it does not exist (for tests and
// `ctx remote init`).
func (r *Remote) EnsureBucket(ctx context.Context) error {
	ok, err := r.mc.BucketExists(ctx, r.cfg.Bucket)
	if err != nil {
		return r.wrap("bucket", r.cfg.Bucket, err)
	}
	if ok {
		return nil
	}
	return r.wrap("make bucket", r.cfg.Bucket, r.mc.MakeBucket(ctx, r.cfg.Bucket, minio.MakeBucketOptions{Region: r.cfg.Region}))
}

func isPrecondition(err error) bool {
	var e minio.ErrorResponse
	if errors.As(err, &e) {
		return e.StatusCode == http.StatusPreconditionFailed || e.Code == "PreconditionFailed"
	}
	return false
}

func isNotFoundErr(err error) bool {
	var e minio.ErrorResponse
	if errors.As(err, &e) && e.Code != minio.NoSuchBucket {
		return e.StatusCode == http.StatusNotFound || e.Code == minio.NoSuchKey
	}
	return false
}

func isNoBucketErr(err error) bool {
	var e minio.ErrorResponse
	return errors.As(err, &e) && e.Code == minio.NoSuchBucket
}

// noBucket is the error of a request to a bucket the endpoint does not
// have: a wrong configuration, never an answer about the object asked for.
func (r *Remote) noBucket(op string, err error) error {
	return &serverError{msg: fmt.Sprintf("remote %s: bucket %q does not exist at %s: create it, or fix bucket (and endpoint) in %s",
		op, r.cfg.Bucket, r.cfg.Endpoint, r.configName()), err: err}
}

// configName is the file the configuration came from, for an error's fix.
func (r *Remote) configName() string { return r.cfg.name() }

// diagnose replaces a failed push's error by the missing bucket's when that
// is the cause: some servers answer a write to a missing bucket with
// AccessDenied or a bare 404, which would send the user after credentials
// or a missing object. It costs one request, and only on failure.
func (r *Remote) diagnose(ctx context.Context, op string, err error) error {
	if err == nil || ctx.Err() != nil || isNoBucketErr(err) {
		return err
	}
	if ok, berr := r.mc.BucketExists(ctx, r.cfg.Bucket); berr == nil && !ok {
		return r.noBucket(op, err)
	}
	return err
}

// wrap names the operation, object and server in an error; a missing object
// wraps store.ErrNotFound.
func (r *Remote) wrap(op, key string, err error) error {
	if err == nil {
		return nil
	}
	if isNoBucketErr(err) {
		return r.noBucket(op+" "+key, err)
	}
	if isNotFoundErr(err) {
		return fmt.Errorf("remote %s s3://%s/%s: %w", op, r.cfg.Bucket, key, store.ErrNotFound)
	}
	var e minio.ErrorResponse
	if errors.As(err, &e) && e.Code != "" {
		return &serverError{msg: fmt.Sprintf("remote %s s3://%s/%s at %s: %s (%s)", op, r.cfg.Bucket, key, r.cfg.Endpoint, e.Code, e.Message), err: err}
	}
	var te *TimeoutError
	if errors.As(err, &te) {
		return fmt.Errorf("remote %s s3://%s/%s at %s: %w: the server accepts connections but does not answer (is endpoint right in %s?); on a slow link raise timeout there, or set %s=2m for one command",
			op, r.cfg.Bucket, key, r.cfg.Endpoint, te, r.configName(), TimeoutEnv)
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return fmt.Errorf("remote %s s3://%s/%s at %s: %w (is the server up, and endpoint right in %s?)", op, r.cfg.Bucket, key, r.cfg.Endpoint, err, r.configName())
	}
	return fmt.Errorf("remote %s s3://%s/%s at %s: %w", op, r.cfg.Bucket, key, r.cfg.Endpoint, err)
}

// putStream writes an object from a stream of size bytes (-1: unknown, sent
// in parts). Objects written this way are content-addressed data objects
// under a fresh name, so no condition is needed.
func (r *Remote) putStream(ctx context.Context, key string, body io.Reader, size int64) error {
	return r.put(ctx, key, body, size, minio.PutObjectOptions{})
}

// serverError is a refusal by the server, named by its S3 code; it wraps
// the client's error.
type serverError struct {
	msg string
	err error
}

func (e *serverError) Error() string { return e.msg }
func (e *serverError) Unwrap() error { return e.err }
