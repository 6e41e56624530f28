"""The judge as a keeper installs it: a wheel built from this tree, installed into a fresh venv
outside the source tree, must read orders (grammar/) and answer (templates/) through `judge serve`."""
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from test_mail_demo import play_demo

ROOT = Path(__file__).resolve().parents[1]
# One worker runs this module under pytest-xdist (bin/test: --dist loadgroup), so the wheel is built once.
pytestmark = pytest.mark.xdist_group("package_wheel")


def build_wheel(out: Path) -> Path:
    # No build isolation: the test venv's setuptools builds it, so no package index is needed.
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(out), str(ROOT)], check=True, capture_output=True, text=True)
    [wheel] = out.glob("judge-*.whl")
    return wheel


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """One wheel for the module's tests: building it is most of their time."""
    return build_wheel(tmp_path_factory.mktemp("dist"))


def install_into_fresh_venv(wheel: Path, venv: Path) -> Path:
    # A venv without pip of its own (ensurepip took ~20 s on a loaded machine); the test venv's pip
    # installs into it (`pip --python`), as the venv's own pip would.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                    "--no-index", "--disable-pip-version-check", str(wheel)], check=True)
    # The judge's dependencies come from the test venv's site-packages (no index needed), listed
    # after the fresh venv's own; the judge itself there is an editable finder, which a plain
    # path entry does not run, so `import judge` can only find the wheel's copy.
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               check=True, capture_output=True, text=True).stdout.strip())
    (site / "test_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return venv / "bin"


def test_the_wheel_carries_the_grammar_the_templates_and_the_maps(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("judge/grammar/orders.lark", "judge/grammar/commands.lark", "judge/templates/reply_confirm.j2",
                 "judge/templates/notice_results.j2", "judge/templates/_macros.j2",
                 "judge/variants/standard/variant.json", "judge/variants/standard/cells.png"):
        assert name in names, name
    assert not any(n.startswith(("tests/", "bench/", "grammar/", "templates/")) for n in names)


def test_a_judge_installed_from_the_wheel_plays_by_mail_outside_the_source_tree(wheel, tmp_path):
    bin_dir = install_into_fresh_venv(wheel, tmp_path / "venv")
    where = subprocess.run([str(bin_dir / "python"), "-c", "import judge; print(judge.__file__)"],
                           cwd=tmp_path, check=True, capture_output=True, text=True).stdout.strip()
    assert where.startswith(str(tmp_path / "venv")), where
    play_demo(bin_dir / "judge", tmp_path)
