package remote

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"filippo.io/age"

	"github.com/ctxhq/ctx/store"
)

// sealer encrypts objects to age recipients and decrypts them with the
// configured identities. age authenticates what it decrypts, so a sealed
// object changed in the bucket fails to open rather than reading wrong.
type sealer struct {
	recipients []age.Recipient
	identities []age.Identity
}

func newSealer(recipients []string, identityFile string) (*sealer, error) {
	s := &sealer{}
	for _, r := range recipients {
		rc, err := age.ParseX25519Recipient(r)
		if err != nil {
			return nil, fmt.Errorf("remote config: recipient %q: %w (want an age1… public key)", r, err)
		}
		s.recipients = append(s.recipients, rc)
	}
	if identityFile != "" {
		f, err := os.Open(identityFile)
		if err != nil {
			return nil, fmt.Errorf("remote config: identity_file: %w", err)
		}
		defer f.Close()
		if s.identities, err = age.ParseIdentities(f); err != nil {
			return nil, fmt.Errorf("remote config: identity_file %s: %w", identityFile, err)
		}
	}
	return s, nil
}

func (s *sealer) canSeal() bool { return len(s.recipients) > 0 }

// seal encrypts b; without a sealer (or recipients) it returns b.
func (s *sealer) seal(b []byte) ([]byte, error) {
	if s == nil || !s.canSeal() {
		return b, nil
	}
	var out bytes.Buffer
	w, err := age.Encrypt(&out, s.recipients...)
	if err != nil {
		return nil, fmt.Errorf("encrypt: %w", err)
	}
	if _, err := w.Write(b); err != nil {
		return nil, fmt.Errorf("encrypt: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("encrypt: %w", err)
	}
	return out.Bytes(), nil
}

// ageMagic starts every age file.
var ageMagic = []byte("age-encryption.org/v1\n")

// open decrypts b when it is sealed. A sealed object with no identity to
// open it, or one that fails authentication, is an error naming the fix.
func (s *sealer) open(what string, b []byte) ([]byte, error) {
	if !bytes.HasPrefix(b, ageMagic) {
		if s != nil && s.canSeal() {
			return nil, fmt.Errorf("%s is not encrypted, but this remote encrypts everything: %w", what, store.ErrCorrupt)
		}
		return b, nil
	}
	if s == nil || len(s.identities) == 0 {
		return nil, fmt.Errorf("%s is encrypted: set identity_file in the remote config to an age identity of one of its recipients", what)
	}
	r, err := age.Decrypt(bytes.NewReader(b), s.identities...)
	if err != nil {
		var nm *age.NoIdentityMatchError
		if errors.As(err, &nm) {
			return nil, fmt.Errorf("%s: none of the identities in identity_file is one of its recipients: %w", what, err)
		}
		return nil, fmt.Errorf("%s does not decrypt (damaged or altered): %v: %w", what, err, store.ErrCorrupt)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s does not decrypt (damaged or altered): %v: %w", what, err, store.ErrCorrupt)
	}
	return out, nil
}
