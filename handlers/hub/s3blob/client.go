package s3blob

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// encryption is how the objects Seal writes are encrypted at rest, from a
// bucket URL's ssetype and kmskeyid; zero leaves it to the bucket.
type encryption struct {
	sse    types.ServerSideEncryption
	kmsKey *string
}

// newClient returns the S3 client that the query q of a bucket URL
// describes (see the package documentation), and how writes are
// encrypted. It takes the query members of gocloud.dev's s3blob URLs, which
// earlier versions opened buckets with, and refuses others.
func newClient(ctx context.Context, q url.Values) (*s3.Client, encryption, error) {
	var (
		enc       encryption
		loadOpts  []func(*config.LoadOptions) error
		s3Opts    []func(*s3.Options)
		endpoint  string
		immutable bool
		roleARN   string
		// No client-side retry quota, as gocloud's clients had: a burst
		// of refusals must not make the hub stop retrying.
		limiter retry.RateLimiter = ratelimit.None
	)
	for name, values := range q {
		value := values[0]
		var err error
		switch name {
		case "region":
			loadOpts = append(loadOpts, config.WithRegion(value))
		case "endpoint":
			endpoint = value
		case "profile":
			loadOpts = append(loadOpts, config.WithSharedConfigProfile(value))
		case "hostname_immutable":
			immutable, err = strconv.ParseBool(value)
		case "use_path_style", "s3ForcePathStyle":
			var on bool
			if on, err = strconv.ParseBool(value); err == nil {
				s3Opts = append(s3Opts, func(o *s3.Options) { o.UsePathStyle = on })
			}
		case "disable_https":
			var on bool
			if on, err = strconv.ParseBool(value); err == nil {
				s3Opts = append(s3Opts, func(o *s3.Options) { o.EndpointOptions.DisableHTTPS = on })
			}
		case "accelerate":
			var on bool
			if on, err = strconv.ParseBool(value); err == nil {
				s3Opts = append(s3Opts, func(o *s3.Options) { o.UseAccelerate = on })
			}
		case "dualstack":
			var on bool
			if on, err = strconv.ParseBool(value); err == nil && on {
				loadOpts = append(loadOpts, config.WithUseDualStackEndpoint(aws.DualStackEndpointStateEnabled))
			}
		case "fips":
			var on bool
			if on, err = strconv.ParseBool(value); err == nil && on {
				loadOpts = append(loadOpts, config.WithUseFIPSEndpoint(aws.FIPSEndpointStateEnabled))
			}
		case "anonymous":
			var on bool
			if on, err = strconv.ParseBool(value); err == nil && on {
				loadOpts = append(loadOpts, config.WithCredentialsProvider(aws.AnonymousCredentials{}))
			}
		case "role":
			if !strings.HasPrefix(value, "arn:") {
				err = fmt.Errorf("%q is not an ARN", value)
			}
			roleARN = value
		case "rate_limiter_capacity":
			var capacity int64
			if capacity, err = strconv.ParseInt(value, 10, 32); err == nil && capacity > 0 {
				limiter = ratelimit.NewTokenRateLimit(uint(capacity))
			}
		case "request_checksum_calculation":
			var when aws.RequestChecksumCalculation
			if when, err = parseWhen(value, aws.RequestChecksumCalculationWhenSupported, aws.RequestChecksumCalculationWhenRequired); err == nil {
				loadOpts = append(loadOpts, config.WithRequestChecksumCalculation(when))
			}
		case "response_checksum_validation":
			var when aws.ResponseChecksumValidation
			if when, err = parseWhen(value, aws.ResponseChecksumValidationWhenSupported, aws.ResponseChecksumValidationWhenRequired); err == nil {
				loadOpts = append(loadOpts, config.WithResponseChecksumValidation(when))
			}
		case "ssetype":
			enc.sse, err = parseSSE(value)
		case "kmskeyid":
			enc.kmsKey = aws.String(value)
		case "awssdk":
			// gocloud's choice between the AWS SDK's versions: there is
			// one now.
		default:
			return nil, enc, fmt.Errorf("unknown query member %q", name)
		}
		if err != nil {
			return nil, enc, fmt.Errorf("query member %s: %w", name, err)
		}
	}
	loadOpts = append(loadOpts, config.WithRetryer(func() aws.Retryer {
		return retry.NewStandard(func(o *retry.StandardOptions) { o.RateLimiter = limiter })
	}))
	if roleARN != "" {
		base, err := config.LoadDefaultConfig(ctx, loadOpts...)
		if err != nil {
			return nil, enc, err
		}
		if base.Region == "" {
			return nil, enc, fmt.Errorf("role %s: assuming a role needs a region", roleARN)
		}
		provider := stscreds.NewAssumeRoleProvider(sts.NewFromConfig(base), roleARN)
		loadOpts = append(loadOpts, config.WithCredentialsProvider(provider))
	}
	cfg, err := config.LoadDefaultConfig(ctx, loadOpts...)
	if err != nil {
		return nil, enc, err
	}
	if endpoint != "" {
		s3Opts = append([]func(*s3.Options){func(o *s3.Options) {
			o.BaseEndpoint = aws.String(endpoint)
			// The endpoint's host is the bucket's, not a parent of
			// BUCKET.HOST names.
			o.UsePathStyle = o.UsePathStyle || immutable
		}}, s3Opts...)
	}
	return s3.NewFromConfig(cfg, s3Opts...), enc, nil
}

// parseWhen parses "when_supported" or "when_required", in any case, as
// supported or required.
func parseWhen[T any](value string, supported, required T) (T, error) {
	switch strings.ToLower(value) {
	case "when_supported":
		return supported, nil
	case "when_required":
		return required, nil
	}
	var zero T
	return zero, fmt.Errorf("%q: want when_supported or when_required", value)
}

// parseSSE parses a server-side encryption type (AES256, aws:kms,
// aws:kms:dsse), in any case.
func parseSSE(value string) (types.ServerSideEncryption, error) {
	for _, t := range types.ServerSideEncryptionAes256.Values() {
		if strings.EqualFold(string(t), value) {
			return t, nil
		}
	}
	return "", fmt.Errorf("%q is no server-side encryption type", value)
}
