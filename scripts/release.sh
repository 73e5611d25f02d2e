#!/usr/bin/env bash
# Starts a release: tags the version and pushes the tag; .github/workflows/publish.yml then publishes it with
# provenance (npm publish by hand is refused by prepublishOnly). Usage: npm run release -- <x.y.z>
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:-}"
if [[ ! "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "usage: npm run release -- <x.y.z>   (first move CHANGELOG.md's Unreleased notes under ## [x.y.z])" >&2
  exit 1
fi
# The release notes are written before the tag, so the tagged commit carries them.
if ! grep -q "^## \[$version\]" CHANGELOG.md; then
  echo "CHANGELOG.md has no '## [$version]' section: move the Unreleased notes under it and commit first" >&2
  exit 1
fi
npm version "$version" -m "Release %s" # refuses a dirty work tree; commits package.json and tags v<x.y.z>
git push --follow-tags
