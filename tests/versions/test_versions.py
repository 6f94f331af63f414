"""What each adapter says at import about the framework release it finds (no network, no server)."""

from __future__ import annotations

import warnings
from importlib import metadata
from pathlib import PurePosixPath
from types import SimpleNamespace

import pytest

from ag2_memorysync import versions as ag2_versions
from agno_memorysync import versions as agno_versions


def installed(**dists: str):
    """A stand-in for importlib.metadata.version over the given distributions."""

    def version_of(name: str) -> str:
        if name not in dists:
            raise metadata.PackageNotFoundError(name)
        return dists[name]

    return version_of


def distributions(**dists: tuple[str, bool]):
    """A stand-in for importlib.metadata.distribution: name -> (version, ships the autogen package)."""

    def distribution(name: str) -> SimpleNamespace:
        if name not in dists:
            raise metadata.PackageNotFoundError(name)
        version, owns = dists[name]
        files = [PurePosixPath(f"{name}-{version}.dist-info/METADATA")]
        if owns:
            files.append(PurePosixPath("autogen/__init__.py"))
        return SimpleNamespace(version=version, files=files)

    return distribution


def warned(check, lookup) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(lookup)
    return [str(w.message) for w in caught]


@pytest.mark.parametrize(
    "dists",
    [
        {"autogen": ("0.3.2", True)},
        {"autogen": ("0.14.1", True)},
        {"ag2": ("0.14.0", True)},
        # autogen 0.5-0.14.0 are aliases: metadata only, the package comes from pyautogen / ag2
        {"autogen": ("0.9.10", False), "ag2": ("0.9.10", True)},
        {"autogen": ("0.8.7", False), "pyautogen": ("0.8.7", True)},
    ],
)
def test_ag2_classic_releases_in_range_pass_quietly(dists):
    assert warned(ag2_versions.check_installed, distributions(**dists)) == []


def test_ag2_rewrite_next_to_autogen_is_not_a_second_owner_of_the_autogen_package():
    lookup = distributions(autogen=("0.14.1", True), ag2=("1.2.1", False))
    assert ag2_versions.autogen_owners(lookup) == {"autogen": "0.14.1"}
    assert warned(ag2_versions.check_installed, lookup) == []


def test_two_distributions_writing_the_autogen_package_are_named_with_the_fix():
    (message,) = warned(
        ag2_versions.check_installed, distributions(autogen=("0.14.1", True), ag2=("0.14.0", True))
    )
    assert "autogen 0.14.1, ag2 0.14.0" in message and "pip uninstall autogen" in message


@pytest.mark.parametrize("version", ["0.2.35", "0.15.0"])
def test_ag2_classic_outside_the_range_is_told_the_range_and_both_install_paths(version):
    (message,) = warned(ag2_versions.check_installed, distributions(autogen=(version, True)))
    assert f"autogen {version} is outside" in message and "0.3.2 to 0.14.x" in message
    assert "pip install 'memorysync-kit[ag2]'" in message and "pip install memorysync-kit." in message


def test_ag2_classic_not_installed_is_not_an_error_at_import():
    assert warned(ag2_versions.check_installed, distributions()) == []


def test_the_real_environment_has_one_owner_of_the_autogen_package_in_range():
    owners = ag2_versions.autogen_owners()
    assert len(owners) == 1
    ((name, version),) = owners.items()
    assert ag2_versions.OLDEST <= ag2_versions._release(version) < ag2_versions.BEYOND, (name, version)


@pytest.mark.parametrize("version", ["3.0.0", "3.1.10"])
def test_agno_in_range_passes_quietly(version):
    assert warned(agno_versions.check_installed, installed(agno=version)) == []


def test_agno_2_is_warned_about_the_swallowed_session_errors_and_the_safe_wiring():
    (message,) = warned(agno_versions.check_installed, installed(agno="2.9.0"))
    assert "agno 2.9.0" in message and "swallows session-storage errors" in message
    assert "MemoryManager(db=MemorySyncDb())" in message and "agno>=3.0,<3.2" in message


def test_agno_newer_than_tested_is_warned_with_the_range():
    (message,) = warned(agno_versions.check_installed, installed(agno="3.2.0"))
    assert "agno 3.2.0 is newer" in message and "agno>=3.0,<3.2" in message


def test_agno_not_installed_as_a_distribution_is_not_an_error():
    assert warned(agno_versions.check_installed, installed()) == []
