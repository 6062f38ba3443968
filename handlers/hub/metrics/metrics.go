// Package metrics counts what a hub does, for Prometheus: requests by
// route and status, submissions stored, files they carry, upload URLs
// handed out, delivery attempts by outcome, and the delivery queue's
// depth, served in Prometheus's text format at /metrics.
//
// Routes are counted by their pattern (/v1/:site/:slug/submit), never by
// the path asked for, so that no client can make up series. /metrics is
// an owner's route: Register puts the guard it is given in front of it
// (the hub uses the admin API's token check).
package metrics

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/delivery"
)

// Path is where the metrics are served.
const Path = "/metrics"

// Metrics holds a hub's counters, in a registry of its own.
type Metrics struct {
	reg         *prometheus.Registry
	logger      *slog.Logger
	requests    *prometheus.CounterVec
	submissions prometheus.Counter
	files       prometheus.Counter
	uploadURLs  prometheus.Counter
	deliveries  *prometheus.CounterVec
	// backupSuccess and backups are the scheduled backups' results.
	backupSuccess prometheus.Gauge
	backups       *prometheus.CounterVec
}

// New returns the metrics of one hub process; logger takes the errors of
// a scrape.
func New(logger *slog.Logger) *Metrics {
	m := &Metrics{
		reg:    prometheus.NewRegistry(),
		logger: logger,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hubform_http_requests_total", Help: "HTTP requests answered, by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		submissions: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "hubform_submissions_total", Help: "Submissions stored.",
		}),
		files: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "hubform_uploads_total", Help: "Uploaded files claimed by stored submissions.",
		}),
		uploadURLs: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "hubform_upload_urls_total", Help: "Signed upload URLs handed out.",
		}),
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hubform_delivery_attempts_total", Help: "Delivery attempts this hub made, by kind (webhook, email, confirmation, draft_link) and what they left the delivery as (delivered, retrying, failed, cancelled).",
		}, []string{"kind", "outcome"}),
	}
	m.backupSuccess = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "hubform_backup_last_success_timestamp_seconds", Help: "When the last scheduled backup that succeeded began, in Unix seconds; 0 before one.",
	})
	m.backups = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "hubform_backups_total", Help: "Scheduled backups this hub took, by outcome (success, failure).",
	}, []string{"outcome"})
	m.reg.MustRegister(m.requests, m.submissions, m.files, m.uploadURLs, m.deliveries, m.backupSuccess, m.backups,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// BackupDone counts a scheduled backup begun at, and its success.
func (m *Metrics) BackupDone(at time.Time, ok bool) {
	if !ok {
		m.backups.WithLabelValues("failure").Inc()
		return
	}
	m.backups.WithLabelValues("success").Inc()
	m.backupSuccess.Set(float64(at.Unix()))
}

// OnAttempt counts a delivery attempt: delivery.Config.OnAttempt.
func (m *Metrics) OnAttempt(kind, outcome string) { m.deliveries.WithLabelValues(kind, outcome).Inc() }

// CountQueue reports the delivery queue's depth at each scrape, as depth
// (delivery.Queue.Depth) counts it across every hub on the database.
func (m *Metrics) CountQueue(depth func(context.Context) (delivery.Depth, error)) {
	m.reg.MustRegister(&queueCollector{depth: depth, logger: m.logger})
}

// Register counts every request of e by its route, and serves the metrics
// at Path behind guard.
func (m *Metrics) Register(e *echo.Echo, guard echo.MiddlewareFunc) {
	e.Use(m.countRequests)
	e.GET(Path, echo.WrapHandler(promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})), guard)
}

// countRequests counts each request once answered, errors included.
func (m *Metrics) countRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := next(c); err != nil {
			// Answered here, so that the status counted is the one sent.
			c.Error(err)
		}
		route := c.Path()
		if route == "" {
			route = "unmatched"
		}
		m.requests.WithLabelValues(route, c.Request().Method, strconv.Itoa(c.Response().Status)).Inc()
		return nil
	}
}

// Store wraps a hub's store, counting the submissions it stores, their
// files and the uploads it records.
func (m *Metrics) Store(s hub.Store) hub.Store { return &store{Store: s, m: m} }

type store struct {
	hub.Store
	m *Metrics
}

func (s *store) CreateUpload(ctx context.Context, u hub.Upload) error {
	err := s.Store.CreateUpload(ctx, u)
	if err == nil {
		s.m.uploadURLs.Inc()
	}
	return err
}

func (s *store) CreateSubmission(ctx context.Context, sub hub.Submission) error {
	err := s.Store.CreateSubmission(ctx, sub)
	if err == nil {
		s.m.submissions.Inc()
		s.m.files.Add(float64(len(sub.Attachments)))
	}
	return err
}

// queueCollector reports the queue's depth, read from the database.
type queueCollector struct {
	depth  func(context.Context) (delivery.Depth, error)
	logger *slog.Logger
}

var queueDesc = prometheus.NewDesc("hubform_delivery_queue_jobs",
	"Deliveries not finished, on every hub of the database, by state: available (due), running, retrying (waiting for their next attempt).",
	[]string{"state"}, nil)

func (q *queueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- queueDesc }

func (q *queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d, err := q.depth(ctx)
	if err != nil {
		// The series go missing, which alerts can see; the log says why.
		q.logger.Warn("metrics: the delivery queue's depth could not be read", slog.Any("error", err))
		return
	}
	for state, n := range map[string]int{"available": d.Available, "running": d.Running, "retrying": d.Retrying} {
		ch <- prometheus.MustNewConstMetric(queueDesc, prometheus.GaugeValue, float64(n), state)
	}
}
