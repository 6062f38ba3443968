package main

// environment is every environment variable that stands in for a flag: by
// command, each flag's variable. A command reads its variables before its
// command line, whose flags win; its help names each beside its flag; and
// the operations guide's table of variables is this one (a test holds
// them together). A flag missing here has no variable.
var environment = map[string]map[string]string{
	"backup": {
		"data": "HUBFORM_DATA",
		"db":   "HUBFORM_DB",
	},
	"conformance": {
		"form":    "HUBFORM_FORM",
		"hub-url": "HUBFORM_HUB_URL",
		"site":    "HUBFORM_SITE",
	},
	"deliveries": {
		"data": "HUBFORM_DATA",
		"db":   "HUBFORM_DB",
	},
	"demo": {
		"addr":                 "HUBFORM_DEMO_ADDR",
		"data":                 "HUBFORM_DATA",
		"hub-url":              "HUBFORM_HUB_URL",
		"recaptcha-secret":     "HUBFORM_RECAPTCHA_SECRET",
		"recaptcha-site-key":   "HUBFORM_RECAPTCHA_SITE_KEY",
		"recaptcha-verify-url": "HUBFORM_RECAPTCHA_VERIFY_URL",
		"turnstile-script-url": "HUBFORM_TURNSTILE_SCRIPT_URL",
		"turnstile-secret":     "HUBFORM_TURNSTILE_SECRET",
		"turnstile-site-key":   "HUBFORM_TURNSTILE_SITE_KEY",
		"turnstile-verify-url": "HUBFORM_TURNSTILE_VERIFY_URL",
	},
	"forms": {
		"form":    "HUBFORM_FORM",
		"hub-url": "HUBFORM_HUB_URL",
		"site":    "HUBFORM_SITE",
		"token":   "HUBFORM_TOKEN",
	},
	"gen": {
		"hub-url": "HUBFORM_HUB_URL",
	},
	"hub": {
		"addr":                 "HUBFORM_ADDR",
		"backup-every":         "HUBFORM_BACKUP_EVERY",
		"backup-keep":          "HUBFORM_BACKUP_KEEP",
		"backup-to":            "HUBFORM_BACKUP_TO",
		"blob":                 "HUBFORM_BLOB",
		"data":                 "HUBFORM_DATA",
		"db":                   "HUBFORM_DB",
		"delivery-backoff":     "HUBFORM_DELIVERY_BACKOFF",
		"delivery-timeout":     "HUBFORM_DELIVERY_TIMEOUT",
		"forms":                "HUBFORM_FORMS",
		"forms-workspace":      "HUBFORM_FORMS_WORKSPACE",
		"log-format":           "HUBFORM_LOG_FORMAT",
		"max-body":             "HUBFORM_MAX_BODY",
		"oidc-client-id":       "HUBFORM_OIDC_CLIENT_ID",
		"oidc-client-secret":   "HUBFORM_OIDC_CLIENT_SECRET",
		"oidc-issuer":          "HUBFORM_OIDC_ISSUER",
		"public-url":           "HUBFORM_PUBLIC_URL",
		"rate-limit":           "HUBFORM_RATE_LIMIT",
		"recaptcha-secret":     "HUBFORM_RECAPTCHA_SECRET",
		"recaptcha-verify-url": "HUBFORM_RECAPTCHA_VERIFY_URL",
		"shutdown-grace":       "HUBFORM_SHUTDOWN_GRACE",
		"signing-secret":       "HUBFORM_SIGNING_SECRET",
		"signup":               "HUBFORM_SIGNUP",
		"smtp-from":            "HUBFORM_SMTP_FROM",
		"smtp-url":             "HUBFORM_SMTP_URL",
		"sweep-interval":       "HUBFORM_SWEEP_INTERVAL",
		"trusted-proxies":      "HUBFORM_TRUSTED_PROXIES",
		"turnstile-script-url": "HUBFORM_TURNSTILE_SCRIPT_URL",
		"turnstile-secret":     "HUBFORM_TURNSTILE_SECRET",
		"turnstile-verify-url": "HUBFORM_TURNSTILE_VERIFY_URL",
		"upload-ttl":           "HUBFORM_UPLOAD_TTL",
		"webhook-allow-nets":   "HUBFORM_WEBHOOK_ALLOW_NETS",
	},
	"submissions": {
		"blob": "HUBFORM_BLOB",
		"data": "HUBFORM_DATA",
		"db":   "HUBFORM_DB",
	},
	"submit": {
		"form":    "HUBFORM_FORM",
		"hub-url": "HUBFORM_HUB_URL",
		"site":    "HUBFORM_SITE",
	},
	"tokens": {
		"data": "HUBFORM_DATA",
		"db":   "HUBFORM_DB",
	},
	"users": {
		"data": "HUBFORM_DATA",
		"db":   "HUBFORM_DB",
	},
	"workspaces": {
		"data": "HUBFORM_DATA",
		"db":   "HUBFORM_DB",
	},
}
