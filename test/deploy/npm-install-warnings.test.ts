import { spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { expect, it } from 'vitest';
import { finished, ROOT } from '../support/run-process.js';

// docs/dependencies.md#install-scripts: a newcomer's `npm ci` and every npm command after it print no
// warning of the project's: no .npmrc key npm does not know, and every dependency's install script
// allowed or denied in package.json's allowScripts, each for a reason written there.
it('npm finds no project setting it does not know and no install script left unreviewed', async () => {
  const listed = await finished(
    spawn('npm', ['install-scripts', 'ls'], {
      cwd: ROOT,
      // This suite's Node first on PATH, so npm runs on the runtime under test (.ci/run).
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  expect(listed).toEqual({ code: 0, stdout: 'No packages with unreviewed install scripts.\n', stderr: '' });
});
