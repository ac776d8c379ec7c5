#!/usr/bin/env node
// The innate-mcp launcher: finds the innate-mcp binary of this platform
// (the package @innate-mcp/<platform>-<arch>, one of this package's optional
// dependencies) and runs it with this process's arguments and standard
// streams, passes on the signals this process receives, and exits as the
// binary did. `npx -y innate-mcp` thus serves MCP over stdio.
'use strict';

const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const tty = require('tty');

const key = `${process.platform}-${process.arch}`;
const platformPackage = `@innate-mcp/${key}`;
const exe = process.platform === 'win32' ? 'innate-mcp.exe' : 'innate-mcp';

// binaryPath returns the binary to run, or null when there is none.
function binaryPath() {
  if (process.env.INNATE_MCP_BINARY) {
    return process.env.INNATE_MCP_BINARY;
  }
  const candidates = [];
  try {
    const manifest = require.resolve(`${platformPackage}/package.json`);
    candidates.push(path.join(path.dirname(manifest), 'bin', exe));
  } catch (e) {
    // Not resolvable from here: look beside this package below.
  }
  // The platform package installed beside this one (node_modules/@innate-mcp/…).
  candidates.push(path.join(__dirname, '..', '..', '@innate-mcp', key, 'bin', exe));
  // A binary put beside the launcher (a package assembled by hand).
  candidates.push(path.join(__dirname, exe));
  return candidates.find((c) => fs.existsSync(c)) || null;
}

function supported() {
  try {
    const deps = require('../package.json').optionalDependencies || {};
    return Object.keys(deps).map((n) => n.replace('@innate-mcp/', ''));
  } catch (e) {
    return [];
  }
}

const bin = binaryPath();
if (!bin) {
  const platforms = supported();
  if (platforms.length > 0 && !platforms.includes(key)) {
    console.error(`innate-mcp: there is no binary for ${key} on npm (there is for ${platforms.join(', ')}).\n` +
      'Build it from source (pure Go, no cgo): go build ./cmd/innate-mcp in a clone of the repository,\n' +
      'then set INNATE_MCP_BINARY to its path or run it directly.');
  } else {
    console.error(`innate-mcp: the binary for ${key} is missing: the package ${platformPackage} is not installed.\n` +
      'npm skips optional dependencies with --omit=optional or --no-optional: install again without it,\n' +
      `or install ${platformPackage} at the same version as innate-mcp,\n` +
      'or set INNATE_MCP_BINARY to the path of an innate-mcp binary (the release archives hold one per platform).');
  }
  process.exit(1);
}

const child = childProcess.spawn(bin, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });

// Pass on the signals sent to this process. An interrupt typed at a terminal
// reaches the whole process group, the binary included, so it is not sent
// twice (the binary takes a second interrupt as "stop now").
const signals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];
const handlers = {};
for (const sig of signals) {
  handlers[sig] = () => {
    if (sig === 'SIGINT' && tty.isatty(0)) {
      return;
    }
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(sig);
    }
  };
  try {
    process.on(sig, handlers[sig]);
  } catch (e) {
    // Not a signal on this platform (Windows has no SIGQUIT).
  }
}

child.on('error', (err) => {
  let hint = '';
  if (err.code === 'EACCES') {
    hint = `: it must be executable (chmod +x ${bin})`;
  } else if (err.code === 'ENOENT') {
    hint = ': no such file (INNATE_MCP_BINARY?)';
  }
  console.error(`innate-mcp: cannot run ${bin}: ${err.message}${hint}`);
  process.exit(1);
});

child.on('exit', (code, signal) => {
  for (const sig of signals) {
    process.removeListener(sig, handlers[sig]);
  }
  if (signal) {
    // Die of the same signal, so that the caller sees what the binary did;
    // where that does not end this process, exit as a shell would report it.
    process.exitCode = 128 + (os.constants.signals[signal] || 0);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
