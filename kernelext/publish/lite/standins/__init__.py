"""Modules that pycsp3 imports and a browser lacks, written for the browser's Python
(see kernelext.publish.lite.wheels)."""
