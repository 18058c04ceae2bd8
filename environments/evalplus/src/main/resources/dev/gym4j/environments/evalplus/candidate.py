# gym4j evalplus candidate (untrusted; runs in a sandbox of its own): loads solution.py and answers the checker's
# calls of its functions. Nothing it prints or returns is a verdict.
import calls

calls.serve_functions(open("solution.py").read())
