package manage

import (
	"testing"

	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
)

// TestMain stops the PostgreSQL server that pgtest may start.
func TestMain(m *testing.M) { pgtest.Main(m) }
