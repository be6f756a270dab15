// The launcher's Go checks: go.mod's `go` line, version comparison, and the unavailable reason
// for a missing, too old or refusing `go` (fake executables chosen through the GO variable).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { goVersionAtLeast, requiredGoVersion, VCSIM_INSTALL_HINT, VCSIM_REQUIRED_GO, vcsimUnavailableReason } from '../support/vcsim.js';

describe('requiredGoVersion', () => {
  it('reads the go line of a go.mod', () => {
    expect(requiredGoVersion('module example.com/x\n\ngo 1.26.0\n\nrequire example.com/y v1.0.0\n')).toBe('1.26.0');
    expect(requiredGoVersion('module example.com/x\ngo 1.22\n')).toBe('1.22');
  });

  it('refuses a go.mod without one', () => {
    expect(() => requiredGoVersion('module example.com/x\ntoolchain go1.26.0\n')).toThrow('e2e/vcsim/go.mod has no `go` line');
  });

  it('is read from e2e/vcsim/go.mod, and the install hint names it', () => {
    expect(VCSIM_REQUIRED_GO).toMatch(/^1\.\d+(\.\d+)?$/);
    expect(VCSIM_INSTALL_HINT).toContain(`Go >= ${VCSIM_REQUIRED_GO}`);
    expect(VCSIM_INSTALL_HINT).toContain('.ci/install-prerequisites');
  });
});

describe('goVersionAtLeast', () => {
  it.each([
    ['go1.26.8', '1.26.0', true],
    ['go1.26.0', '1.26.0', true],
    ['go1.26', '1.26.0', true],
    ['go1.27rc1', '1.26.0', true],
    ['devel go1.27-abcdef', '1.26.0', true],
    ['go1.25.9', '1.26.0', false],
    ['go1.19.8', '1.26.0', false],
    ['go1.26.1', '1.26.2', false],
    ['go2.0.0', '1.26.0', true],
  ])('%s against %s: %s', (actual, required, expected) => {
    expect(goVersionAtLeast(actual, required)).toBe(expected);
  });

  it('cannot tell without a version', () => {
    expect(goVersionAtLeast('', '1.26.0')).toBeUndefined();
  });
});

describe('vcsimUnavailableReason', () => {
  const directory = mkdtempSync(join(tmpdir(), 'vcsim-go-version-'));
  const savedGo = process.env['GO'];

  const fakeGo = (name: string, script: string): string => {
    const path = join(directory, name);
    writeFileSync(path, `#!/bin/sh\n${script}\n`);
    chmodSync(path, 0o755);
    return path;
  };

  afterEach(() => {
    if (savedGo === undefined) delete process.env['GO'];
    else process.env['GO'] = savedGo;
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('says Go is not installed when the binary does not exist', () => {
    process.env['GO'] = join(directory, 'no-such-go');
    expect(vcsimUnavailableReason()).toBe(`Go is not installed (\`${join(directory, 'no-such-go')}\` is not on PATH)`);
  });

  it('says which Go is older than go.mod needs', () => {
    process.env['GO'] = fakeGo('go-old', 'echo go1.19.8');
    expect(vcsimUnavailableReason()).toBe(`Go 1.19.8 is older than e2e/vcsim/go.mod needs (Go >= ${VCSIM_REQUIRED_GO})`);
  });

  it("passes on Go's own refusal (a Go >= 1.21 with GOTOOLCHAIN=local)", () => {
    process.env['GO'] = fakeGo('go-refuses', 'echo "go: go.mod requires go >= 1.26.0 (running go 1.25.3; GOTOOLCHAIN=local)" >&2; exit 1');
    expect(vcsimUnavailableReason()).toBe(
      `Go cannot build e2e/vcsim, which needs Go >= ${VCSIM_REQUIRED_GO} (\`${process.env['GO']} env GOVERSION\` there said: go: go.mod requires go >= 1.26.0 (running go 1.25.3; GOTOOLCHAIN=local))`,
    );
  });

  it('asks with the build flags and, unless the environment sets one, GOTOOLCHAIN=local', () => {
    const toolchain = process.env['GOTOOLCHAIN'] ?? 'local';
    const check = `[ "$1 $2" = "env GOVERSION" ] && [ "$GOFLAGS" = "-mod=readonly -buildvcs=false" ] && [ "$GOTOOLCHAIN" = "${toolchain}" ]`;
    process.env['GO'] = fakeGo('go-flags', `if ${check}; then echo go1.99.0; else echo go1.0.0; fi`);
    expect(vcsimUnavailableReason()).toBeUndefined();
  });

  it('cannot tell from output without a version', () => {
    process.env['GO'] = fakeGo('go-garbage', 'echo hello');
    expect(vcsimUnavailableReason()).toBe('cannot tell the Go version (`' + process.env['GO'] + ' env GOVERSION` printed "hello")');
  });
});
