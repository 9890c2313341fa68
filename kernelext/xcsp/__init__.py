"""Reading XCSP3 text, shared by every reader of compiled models (CP-SAT's, MiniZinc's, the walkthrough's).

Pure Python on the standard library, so that it also runs in the browser. What a reader cannot take raises
`kernelext.errors.Untranslatable`, whose message names it.
"""
