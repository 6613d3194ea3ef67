"""The conversion repairs, one module per rule family; `conversion.pipeline` runs them in order.

Each module holds pure functions over page Markdown (no PDF access, no global state), with its
own tests under ``tests/conversion/``.
"""
