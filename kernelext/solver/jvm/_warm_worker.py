"""The worker process behind WarmAce: one JVM with ACE loaded, solving one request at a time.

Started as `python -m kernelext.solver.jvm._warm_worker CONFIG_JSON`. Requests come as JSON lines on
stdin, replies go as JSON lines on stdout; the JVM's own stdout and stderr (ACE's text) go to the
files named in the config, which the parent reads. When stdin closes (the parent closed it or
died), the worker removes those files and exits.

Requests: {"op": "solve", "args": [...]}, {"op": "stop"} (during a solve), {"op": "heap"}.
Replies: {"op": "ready"}, {"op": "done", "error": str | None}, {"op": "reading"} (to a stop request that
came while ACE still reads the model, which cannot be stopped: the parent then ends the worker), {"op": "heap", "bytes": int}.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import sys
import threading
import time

# A small heap, given back when little of it is used: the JVM's defaults (an initial heap of 1/64 of the
# machine's memory, kept once grown) let a kernel's worker grow by tens of MB over its solves. The serial
# collector with a fixed 16 MB young generation keeps the worker 20-60 MB smaller than the default G1,
# at the same speed on classroom models (its young generation holds a solve's short-lived objects).
HEAP = ("-XX:+UseSerialGC", "-Xmn16m", "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=30")


def main() -> None:
    config = json.loads(sys.argv[1])
    requests, replies = _take_protocol_pipes(config["stdout"])
    ace = _Ace(config, replies)
    _send(replies, {"op": "ready"})
    inbox: queue.Queue = queue.Queue()
    threading.Thread(target=_read_requests, args=(requests, inbox), daemon=True).start()
    while True:
        message = inbox.get()
        op = message.get("op")
        if op == "solve":
            error = ace.solve(message["args"], inbox)
            _send(replies, {"op": "done", "error": error})
        elif op == "heap":
            _send(replies, {"op": "heap", "bytes": ace.heap_used()})
        elif op == "eof":
            break
    shutil.rmtree(os.path.dirname(config["stdout"]), ignore_errors=True)  # in case the parent could not
    os._exit(0)  # skips the JVM's slow, chatty shutdown: nothing is left to save


def _take_protocol_pipes(stdout_path: str):
    """Keep stdin/stdout for the protocol and point file descriptors 0 and 1 elsewhere."""
    requests = os.fdopen(os.dup(0), "rb", buffering=0)
    replies = os.fdopen(os.dup(1), "wb", buffering=0)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    captured = os.open(stdout_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(captured, 1)
    os.close(captured)
    sys.stdin = open(os.devnull)
    return requests, replies


def _read_requests(requests, inbox: queue.Queue) -> None:
    for line in requests:
        inbox.put(json.loads(line))
    inbox.put({"op": "eof"})


def _send(replies, message: dict) -> None:
    try:
        replies.write((json.dumps(message) + "\n").encode())
    except OSError:
        pass  # the parent is gone: its stdin closing ends the main loop


class _Ace:
    """ACE in this process's JVM."""

    def __init__(self, config: dict, replies):
        import jpype

        self.replies = replies
        options = [
            f"-Xss{config['stack']}",
            *HEAP,
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "-Dstdout.encoding=UTF-8",
            "-Dsun.stdout.encoding=UTF-8",
            "-Dstderr.encoding=UTF-8",
            "-Dsun.stderr.encoding=UTF-8",
        ]
        if config["java_version"] >= 22:
            options.append("--enable-native-access=ALL-UNNAMED")
        jpype.startJVM(config["libjvm"], *options, classpath=[config["jar"]], convertStrings=False, interrupt=False)
        self.jpype = jpype
        self.Input = jpype.JClass("dashboard.Input")
        self.Head = jpype.JClass("main.Head")
        self.api2imp = jpype.JClass("org.xcsp.modeler.api.ProblemAPIBase").api2imp
        self.EXCEEDED_TIME = jpype.JClass("solver.Solver$Stopping").EXCEEDED_TIME
        self.System = jpype.JClass("java.lang.System")
        self.runtime = jpype.JClass("java.lang.Runtime").getRuntime()
        hooks = jpype.JClass("java.lang.Class").forName("java.lang.ApplicationShutdownHooks")
        field = hooks.getDeclaredField("hooks")
        field.setAccessible(True)
        self.hooks = field.get(None)
        self.ArrayList = jpype.JClass("java.util.ArrayList")
        jpype.JClass("utility.Kit").useColors = False
        self.classes = None  # the first Head's list of ACE's classes, given to every later Head (see _new_head)

    def solve(self, args: list[str], inbox: queue.Queue) -> str | None:
        """Run ACE on `args` until it ends or a stop request comes; returns an error text or None."""
        hooks_before = set(self.ArrayList(self.hooks.keySet()))
        try:
            self.Input.loadArguments(self.jpype.JArray(self.jpype.JString)(args))
            head = self._new_head()
        except self.jpype.JException as error:
            return f"ACE rejected the arguments: {error}"
        head.start()
        stopping = ending = False
        while head.isAlive():
            try:
                head.join(50)  # in Java, so that no Python thread attaches to the JVM and leaves it dangling
            except Exception:  # the JVM is ending: ACE called System.exit
                time.sleep(10)
                os._exit(1)
            try:
                op = inbox.get_nowait().get("op")
            except queue.Empty:
                op = None
            ending = ending or op == "eof"
            stopping = stopping or op in ("stop", "eof")
            if stopping and not self._stop(head) and op == "stop":
                _send(self.replies, {"op": "reading"})
        if ending:
            inbox.put({"op": "eof"})  # for the main loop, once the search has stopped
        self.System.out.flush()
        self.System.err.flush()
        self._release(hooks_before)
        return None

    def _stop(self, head) -> bool:
        """Make ACE end its search as if its time limit had passed (it then prints its best solution).

        False while ACE still reads the model and builds its solver: nothing can stop that.
        """
        solver = head.solver
        if solver is None:
            return False
        if solver.stopping is None:
            solver.stopping = self.EXCEEDED_TIME
        return True

    def _release(self, hooks_before: set) -> None:
        """Drop what ACE keeps after a solve: its shutdown hooks and its static map of problems."""
        for hook in self.ArrayList(self.hooks.keySet()):
            if hook not in hooks_before:
                self.runtime.removeShutdownHook(hook)
        self.api2imp.clear()

    def _new_head(self):
        """A new Head for the arguments loaded in Input, made without listing ACE's classes again.

        Most of the time a new Head takes goes to its constructor scanning the jars on the class path
        for ACE's heuristic, propagation and constraint classes. The result is the same for every Head,
        so later Heads get the first one's, and are built with the class path property empty, which
        makes their own scan find nothing (no search runs meanwhile that could read the property).
        """
        if self.classes is None:
            head = self.Head()
            self.classes = head.availableClasses
            return head
        class_path = self.System.getProperty("java.class.path")
        self.System.setProperty("java.class.path", "")
        try:
            head = self.Head()
        finally:
            self.System.setProperty("java.class.path", class_path)
        head.availableClasses = self.classes
        return head

    def heap_used(self) -> int:
        """Bytes of heap in use after a full garbage collection."""
        for _ in range(3):
            self.System.gc()
        return int(self.runtime.totalMemory() - self.runtime.freeMemory())


if __name__ == "__main__":
    main()
