// Package funnel counts where a form's visitors go: how many saw it
// (views), began to fill it in (starts), reached each of its steps and sent
// it. Counts only: no cookie, no identifier, nothing of a visitor is kept,
// and a visitor who reloads the page counts twice.
//
// A Counter adds events in memory and stores them in batches, so that
// counting costs a form's page and its submissions next to nothing; the
// hub counts its own pages through it, and the events apps send (the
// protocol's events route). Read returns a form's funnel over a period,
// its submissions and spam from the inbox's counts, and how many of its
// submissions reached each of its endings.
package funnel
