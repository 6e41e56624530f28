"""Packaging glue that pyproject.toml alone cannot say: the top-level grammar/ and templates/ of the
design ship inside the package as `judge.grammar` and `judge.templates`, so an installed judge (from
a wheel, outside any source tree) finds them through importlib.resources."""
from setuptools import find_packages, setup

MAPPED = {"judge.grammar": "grammar", "judge.templates": "templates"}

setup(
    packages=find_packages(include=["judge", "judge.*"]) + list(MAPPED),
    package_dir=MAPPED,
    package_data={"judge": ["variants/*/*.json", "variants/*/*.md", "variants/*/*.png"],
                  "judge.grammar": ["*.lark", "*.json"], "judge.templates": ["*.j2", "*.md"]},
)
