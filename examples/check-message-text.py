#!/usr/bin/env python3
"""Checks `typedstream text --lines hex` output against the table `typedstream-bench
--message-sql` made: one JSON line per row in ROWID order, each good row's text equal to the
`expected` column, each damaged row (`damage` not NULL) an error record. With `--any-order`
the lines may come in any order (the output of shards or of a Spark job): they are put in id
order first. With `--plain` the output is `typedstream decode --lines hex --plain`'s: each good
row's text is the `string` of its one value, and a `notText` row (an archive of another class)
is no error there: it must have a value that is not an attributed string.

    check-message-text.py [--any-order] [--plain] chat.db out.jsonl
"""
import json
import sqlite3
import sys

arguments = sys.argv[1:]
any_order = "--any-order" in arguments
plain = "--plain" in arguments
database, output = [argument for argument in arguments if argument not in ("--any-order", "--plain")]
rows = sqlite3.connect(database).execute("select ROWID, expected, damage from message order by ROWID").fetchall()
with open(output, encoding="utf-8") as lines:
    records = [json.loads(line) for line in lines]
if any_order:
    records.sort(key=lambda record: (not str(record.get("id")).isdigit(), int(record["id"]) if str(record.get("id")).isdigit() else 0, str(record.get("id"))))
problems = []
if len(records) != len(rows):
    problems.append(f"{len(records)} records for {len(rows)} rows")
errors = {}


def text_of(record):
    """The text a record holds: `text`, or with --plain the `string` of its one value."""
    if not plain:
        return record.get("text")
    values = record.get("plain", {}).get("values", [])
    if len(values) == 1 and isinstance(values[0], str):
        return values[0]
    if len(values) == 1 and isinstance(values[0], dict) and "runs" in values[0]:
        return values[0].get("string")
    return None


for (rowid, expected, damage), record in zip(rows, records):
    if record.get("id") != str(rowid):
        problems.append(f"row {rowid}: record id {record.get('id')!r}")
    elif damage is None and text_of(record) != expected:
        problems.append(f"row {rowid}: text {text_of(record)!r}, expected {expected!r} ({record.get('error')})")
    elif plain and damage == "notText":
        if "plain" not in record or text_of(record) is not None:
            problems.append(f"row {rowid}: another class's archive, but: {record}")
        errors.setdefault(damage, set()).add("plain JSON")
    elif damage is not None:
        if "error" not in record:
            problems.append(f"row {rowid}: damaged ({damage}) but no error: {record}")
        else:
            errors.setdefault(damage, set()).add(record["error"]["code"])
good = sum(1 for row in rows if row[2] is None)
print(f"checked {len(rows)} rows: {good} texts equal to what was generated, {len(rows) - good} damaged rows reported "
      + ", ".join(f"{damage} as {'/'.join(sorted(codes))}" for damage, codes in sorted(errors.items())))
for problem in problems[:20]:
    print("MISMATCH:", problem)
sys.exit(1 if problems else 0)
