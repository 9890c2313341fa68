"""The worker process behind WarmAce: one JVM with ACE loaded, solving one request at a time.

Started as `python -m kernelext.solver._warm_worker CONFIG_JSON`. Requests come as JSON lines on
stdin, replies go as JSON lines on stdout; the JVM's own stdout and stderr (ACE's text) go to the
files named in the config, which the parent reads. When stdin closes (the parent closed it or
died), the worker removes those files and exits.

Requests: {"op": "solve", "args": [...]}, {"op": "stop"} (during a solve or a tree), {"op": "heap"},
{"op": "domains", "args": [...]} (the domains after propagation at the root, no search),
{"op": "tree", "args": [...], "nodes": N} (a solve recording its first N decisions).
Replies: {"op": "ready"}, {"op": "done", "error": str | None}, {"op": "reading"} (to a stop request that
came while ACE still reads the model, which cannot be stopped: the parent then ends the worker), {"op": "heap", "bytes": int},
{"op": "domains", "domains": {id: [values]}, "consistent": bool, "error": str | None},
{"op": "tree", "events": [...], "truncated": bool, "stats": {...}, "error": str | None}; tree events are
["+", id, value, size] (decision id = value, taken when id had `size` values), ["-", id, value, size]
(refutation id != value), ["x"] (the last decision failed) and ["s", {id: value}] (the last decision
completed this solution).
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
        elif op == "domains":
            _send(replies, {"op": "domains", **ace.domains(message["args"])})
        elif op == "tree":
            _send(replies, {"op": "tree", **ace.tree(message["args"], message["nodes"], inbox)})
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
        options = [f"-Xss{config['stack']}", *HEAP, "--add-opens=java.base/java.lang=ALL-UNNAMED",
                   "-Dstdout.encoding=UTF-8", "-Dsun.stdout.encoding=UTF-8",
                   "-Dstderr.encoding=UTF-8", "-Dsun.stderr.encoding=UTF-8"]
        if config["java_version"] >= 22:
            options.append("--enable-native-access=ALL-UNNAMED")
        jpype.startJVM(config["libjvm"], *options, classpath=[config["jar"]], convertStrings=False,
                       interrupt=False)
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
        self.recorder_class = None  # made on the first tree request, keeping the worker's start short

    def solve(self, args: list[str], inbox: queue.Queue, prepare=None) -> str | None:
        """Run ACE on `args` until it ends or a stop request comes; returns an error text or None.

        `prepare`, when given, is called with ACE's Head before its search thread starts.
        """
        hooks_before = set(self.ArrayList(self.hooks.keySet()))
        try:
            self.Input.loadArguments(self.jpype.JArray(self.jpype.JString)(args))
            head = self._new_head()
        except self.jpype.JException as error:
            return f"ACE rejected the arguments: {error}"
        if prepare is not None:
            prepare(head)
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

    def domains(self, args: list[str]) -> dict:
        """Each variable's values after ACE's propagation at the root (no search), on this thread."""
        hooks_before = set(self.ArrayList(self.hooks.keySet()))
        try:
            self.Input.loadArguments(self.jpype.JArray(self.jpype.JString)(args))
            head = self._new_head()
            problem = head.buildProblem(0)
            solver = _accessible(self.Head.class_.getDeclaredMethod("buildSolver", problem.getClass())).invoke(
                head, problem)
            consistent = bool(solver.propagation.runInitially())
            domains = {str(v.id()): _values(v.dom) for v in problem.variables
                       if not v.isAuxiliaryVariableIntroducedBySolver()}
        except self.jpype.JException as error:
            return {"domains": {}, "consistent": False, "error": f"ACE could not propagate the model: {error}"}
        finally:
            self.System.out.flush()
            self.System.err.flush()
            self._release(hooks_before)
        return {"domains": domains, "consistent": consistent, "error": None}

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

    def tree(self, args: list[str], nodes: int, inbox: queue.Queue) -> dict:
        """Solve `args` recording the search's first `nodes` decisions (see Recorder)."""
        if self.recorder_class is None:
            self.recorder_class = _recorder_class(self.jpype)
        recorder = self.recorder_class(nodes, self.EXCEEDED_TIME)

        def prepare(head) -> None:
            recorder.head = head
            self._construction_observers(head).add(recorder)

        error = self.solve(args, inbox, prepare)
        reply = {"events": recorder.finish(), "truncated": recorder.truncated, "stats": recorder.stats(),
                 "error": error}
        recorder.head = recorder.solver = None  # else the proxy and ACE's objects keep each other alive
        return reply

    def _construction_observers(self, head):
        """The Head's private list of observers that each build of a problem starts from."""
        return _accessible(self.Head.class_.getDeclaredField("permamentObserversConstruction")).get(head)

    def heap_used(self) -> int:
        """Bytes of heap in use after a full garbage collection."""
        for _ in range(3):
            self.System.gc()
        return int(self.runtime.totalMemory() - self.runtime.freeMemory())


def _accessible(member):
    """A private Java method or field of ACE's, made callable through reflection."""
    member.setAccessible(True)
    return member


def _values(dom) -> list[int]:
    """The values left in an ACE domain, in increasing order."""
    values, index = [], dom.first()
    while index != -1:
        values.append(int(dom.toVal(index)))
        index = dom.next(index)
    return values


def _recorder_class(jpype):
    """The Java observer class that records a search as events (defined once the JVM runs)."""

    @jpype.JImplements("interfaces.Observers$ObserverOnConstruction", "interfaces.Observers$ObserverOnDecisions",
                       "interfaces.Observers$ObserverOnAssignments", "interfaces.Observers$ObserverOnConflicts")
    class Recorder:
        """Hooked into ACE's solver once built; called from ACE's search thread.

        Events as in this module's docstring. After `limit` decisions it asks ACE to stop, and records nothing more.
        """

        def __init__(self, limit: int, stopping):
            self.limit, self.stopping = limit, stopping
            self.head = self.solver = None
            self.events: list[list] = []
            self.decisions = self.found = 0
            self.truncated = False
            self.names: dict[int, str] = {}

        @jpype.JOverride
        def beforeAnyConstruction(self):
            pass

        @jpype.JOverride
        def afterProblemConstruction(self, n):
            pass

        @jpype.JOverride
        def afterSolverConstruction(self):
            self.solver = solver = self.head.solver
            solver.observersOnDecisions.add(self)
            solver.observersOnAssignments.add(self)
            solver.observersOnConflicts.add(self)

        @jpype.JOverride
        def beforePositiveDecision(self, x, a):
            self._decision("+", x, a)

        @jpype.JOverride
        def beforeNegativeDecision(self, x, a):
            self._decision("-", x, a)

        @jpype.JOverride
        def afterAssignment(self, x, a):
            pass

        @jpype.JOverride
        def afterFailedAssignment(self, x, a):
            self._failure("+")

        @jpype.JOverride
        def afterUnassignment(self, x):
            pass

        @jpype.JOverride
        def whenWipeout(self, c, x):
            pass

        @jpype.JOverride
        def whenBacktrack(self):
            self._failure("-")

        def _decision(self, sign: str, x, a) -> None:
            self._note_solutions()
            if self.truncated:
                return
            if self.decisions == self.limit:
                self.truncated = True
                if self.solver.stopping is None:
                    self.solver.stopping = self.stopping
                return
            self.decisions += 1
            num = int(x.num)
            if num not in self.names:
                self.names[num] = str(x.id())
            self.events.append([sign, self.names[num], int(x.dom.toVal(a)), int(x.dom.size())])

        def _failure(self, sign: str) -> None:
            if not self.truncated and self.events and self.events[-1][0] == sign:
                self.events.append(["x"])

        def _note_solutions(self) -> None:
            found = int(self.solver.solutions.found) if self.solver is not None else 0
            if found > self.found and not self.truncated:
                idxs = self.solver.solutions.last.idxs
                self.events.append(["s", {str(x.id()): int(x.dom.toVal(idxs[x.num]))
                                          for x in self.solver.problem.variables
                                          if not x.isAuxiliaryVariableIntroducedBySolver()}])
            self.found = found

        def finish(self) -> list[list]:
            """The events, once the search has ended ("x" alone when it failed before any decision)."""
            self._note_solutions()
            if not self.events and self.found == 0:
                self.events.append(["x"])
            return self.events

        def stats(self) -> dict:
            """ACE's own counters for the search."""
            if self.solver is None:
                return {}
            s = self.solver.stats
            return {"nodes": int(s.nNodes), "decisions": int(s.nDecisions), "wrong_decisions": int(s.nWrongDecisions),
                    "assignments": int(s.nAssignments), "failed_assignments": int(s.nFailedAssignments),
                    "solutions": int(self.solver.solutions.found)}

    return Recorder


if __name__ == "__main__":
    main()
