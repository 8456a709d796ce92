// Package jsondoc is the profile for JSON output: one JSON document, JSON
// Lines (one value per line), or a stream of values such as `jq .[]` prints.
//
// For a stream of records it counts each distinct record shape (the sorted
// top-level keys with their JSON types) and names, with their record numbers
// and line spans, the records whose shape is rare next to a dominant one (at
// most 3 records, or under 1% of them) and the records that look like errors
// ("level":"error", a non-empty "error" member, pino's level 50 and above).
// It also counts the values of category fields — top-level keys whose values
// are short strings, booleans or null with at most 12 distinct values, fewer
// than a third of the records — and names the records holding a rare value
// (a "skip" among "pass", a "CLOSED" among "OPEN"), as a table's unusual
// status rows are named.
// For a single document it gives the key and type outline to a bounded depth,
// with container lengths and the pointer and lines of each path's first
// occurrence; the elements of a top-level array are records as above.
//
// Items: shape (Name is the signature `{"id":number,"msg":string}`, or for a
// document the path `/items/*/id`; Count the records or values; Attrs
// first_record, or pointer, type, length, depth), record (Why
// "minority-shape", Attrs record or pointer, shape; or Why "minority-value",
// Attrs record or pointer, field, value), shape per category field (Name
// `values of state: "OPEN" 25 · "CLOSED" 5`, Attrs field, values), anomaly (Why
// "error-record"), one summary (Name "records" or "document"; Counts records,
// shapes, invalid_lines, minority_records, minority_values, error_records,
// elements, keys), and
// a region naming stderr when it was not the parsed stream.
//
// Pointer and Records return exact bytes of one value or of a range of
// records, for `ctx get --json-pointer` and `--records`.
//
// The profile streams: it never holds the records, only counts and the first
// few records of each shape, and every table is capped with a labelled loss.
// It must never re-encode what it returns, claim a verdict (JSON says nothing
// about pass or fail), or accept a broken single document: that returns an
// error so the registry falls back to text. Lines of JSON Lines that are not
// JSON are counted and reported as a loss; when they outnumber the valid
// lines the parse fails instead.
package jsondoc
