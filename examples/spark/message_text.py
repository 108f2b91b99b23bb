#!/usr/bin/env python3
"""The text of many message bodies on Apache Spark: reads records `ID<TAB>HEX` (what
`sqlite3 -separator $'\\t' chat.db "select ROWID, hex(attributedBody) from message"` prints),
hands each partition to one `typedstream text --lines hex` process through `RDD.pipe`, and
writes the JSON lines it prints (`{"id":…,"text":…}`, or `{"id":…,"error":{…}}` for a bad
record) as text files under OUTPUT, one `part-NNNNN` per partition.

    python3 examples/spark/message_text.py --master 'local[2]' --typedstream .build/release/typedstream \\
        --partitions 4 lines.tsv out/
    spark-submit examples/spark/message_text.py --typedstream /opt/typedstream/bin/typedstream \\
        hdfs:///chat/lines.tsv hdfs:///chat/text/

The program must be at the `--typedstream` path on every worker (or on a shared file system).
A partition whose process exits with 0 (every record decoded) or 1 (some records were bad: they
are error lines in the output) is done; any other status — a crash, a signal — fails the task,
and Spark runs it again. At the end the job counts the lines written against the records read
and exits with status 1 if they differ. Lines come out in no particular order across partitions;
each line carries its record's id.
"""
import argparse
import os
import shlex
import sys
import time

from pyspark.sql import SparkSession


def pipe_command(typedstream, lines_encoding="hex", runs=False):
    """The command each partition runs: typedstream, with its exit status 1 (bad records, which
    are reported in the output) turned into success, so that only a real failure fails the task."""
    tool = os.path.abspath(typedstream) if os.path.sep in typedstream else typedstream
    script = '"$0" text --lines ' + lines_encoding + (" --runs" if runs else "") + "; test $? -le 1"
    return "/bin/sh -c " + shlex.quote(script) + " " + shlex.quote(tool)


# RDD.pipe runs the command with only the environment it is given: a bare program name is looked
# for in these folders on the worker.
WORKER_PATH = "/usr/local/bin:/usr/bin:/bin"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="records ID<TAB>HEX, one a line (a file, folder or glob Spark can read)")
    parser.add_argument("output", help="the folder to write the JSON lines into (must not exist)")
    parser.add_argument("--typedstream", default="typedstream", help=f"the typedstream program, the same path on every worker (default: typedstream in {WORKER_PATH})")
    parser.add_argument("--partitions", type=int, default=None, help="at least this many partitions, each one typedstream process (default: Spark's)")
    parser.add_argument("--master", default=None, help="Spark master, e.g. local[2] (default: what spark-submit says)")
    parser.add_argument("--encoding", default="hex", choices=["hex", "base64"], help="how the blobs are spelled")
    parser.add_argument("--runs", action="store_true", help="also write the attribute runs")
    arguments = parser.parse_args()

    started = time.monotonic()
    # The Python workers run the same interpreter as this driver.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = (SparkSession.builder.appName("typedstream message text")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false"))
    if arguments.master:
        builder = builder.master(arguments.master)
        if arguments.master.startswith("local"):
            # One machine: Spark talks to itself on the loopback interface only.
            os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
            builder = (builder.config("spark.driver.host", "127.0.0.1")
                       .config("spark.driver.bindAddress", "127.0.0.1"))
    spark = builder.getOrCreate()
    context = spark.sparkContext
    context.setLogLevel("WARN")
    session = time.monotonic() - started

    started = time.monotonic()
    records = context.textFile(arguments.input, minPartitions=arguments.partitions) \
        if arguments.partitions else context.textFile(arguments.input)
    command = pipe_command(arguments.typedstream, arguments.encoding, arguments.runs)
    records.pipe(command, env={"PATH": WORKER_PATH}, checkCode=True).saveAsTextFile(arguments.output)
    elapsed = time.monotonic() - started
    print(f"spark: session started in {session:.2f} s; {records.getNumPartitions()} partitions through "
          f"'{command}' into {arguments.output} in {elapsed:.2f} s", file=sys.stderr)

    # One output line per record (typedstream skips empty lines): a process that ended early
    # with status 1 without writing its records would otherwise go unnoticed.
    started = time.monotonic()
    expected = records.filter(lambda line: line.rstrip("\r") != "").count()
    written = context.textFile(arguments.output).count()
    print(f"spark: {written} lines written for {expected} records (counted in {time.monotonic() - started:.2f} s)",
          file=sys.stderr)
    spark.stop()
    if written != expected:
        sys.exit(f"spark: {written} lines written for {expected} records")


if __name__ == "__main__":
    main()
