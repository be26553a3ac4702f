import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { queueNames } from '../../shared/job-catalog.js';
import type { Json } from '../support/harness.js';
import { ROOT } from '../support/run-process.js';

// No Docker engine or cluster runs here (deploy/kubernetes/README.md): the deploy files are parsed
// and held to what docs/operations.md#shutdown and #scaling promise of them.

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const kubernetesDir = 'deploy/kubernetes';
const manifests: Json[] = readdirSync(join(ROOT, kubernetesDir))
  .filter((file) => file.endsWith('.yaml'))
  .flatMap((file) => parseAllDocuments(read(join(kubernetesDir, file))).map((document) => document.toJS() as Json))
  .filter((manifest) => manifest && manifest.kind !== 'Secret');
const deployments = manifests.filter((manifest) => manifest.kind === 'Deployment');
const compose = parse(read('docker-compose.yml'), { merge: true });
const composeApps = Object.entries<Json>(compose.services).filter(([, service]) => service.image === 'tally:latest');
const SECRETS = ['DATABASE_URL', 'REDIS_URL', 'PLATFORM_TOKEN_SECRET'];

/** The Dockerfile's instructions, continuation lines joined and comments dropped. */
function dockerfile(): { instruction: string; argument: string }[] {
  return read('deploy/Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() && !line.trim().startsWith('#'))
    .map((line) => {
      const [instruction = '', ...rest] = line.trim().split(/\s+/);
      return { instruction: instruction.toUpperCase(), argument: rest.join(' ') };
    });
}

function allContainers(deployment: Json): Json[] {
  return [...(deployment.spec.template.spec.initContainers ?? []), ...deployment.spec.template.spec.containers];
}

function environment(container: Json): Record<string, Json> {
  return Object.fromEntries((container.env ?? []).map((entry: Json) => [entry.name, entry]));
}

/** The queues each worker runs, from `node dist/main.js worker q…` (no queue: every queue). */
function queuesOf(command: string[]): string[] {
  const at = command.indexOf('worker');
  const named = command.slice(at + 1);
  return named.length ? named : queueNames;
}

describe('deploy/Dockerfile', () => {
  const steps = dockerfile();
  const indexOf = (predicate: (step: { instruction: string; argument: string }) => boolean) =>
    steps.findIndex(predicate);

  it('pins every stage to one Node LTS release, the one .ci/run installs for its second suite', () => {
    const images = steps.filter((step) => step.instruction === 'FROM').map((step) => step.argument.split(' ')[0]);
    expect(new Set(images).size).toBe(1);
    const [, major] = /^node:(\d+)\.\d+\.\d+-slim$/.exec(images[0]!) ?? [];
    // Even majors are the LTS lines; the odd ones end within months of release.
    expect(Number(major) % 2).toBe(0);
    expect(read('.ci/run')).toContain('deploy/Dockerfile');
  });

  it('installs dependencies from the lock file before copying sources, then builds and prunes', () => {
    const lockCopy = indexOf(
      (step) => step.instruction === 'COPY' && step.argument === 'package.json package-lock.json ./',
    );
    const install = indexOf((step) => step.instruction === 'RUN' && step.argument === 'npm ci --ignore-scripts');
    const firstSource = indexOf(
      (step) => step.instruction === 'COPY' && /\b(api|shared|main\.ts)\b/.test(step.argument),
    );
    const build = indexOf((step) => step.instruction === 'RUN' && step.argument.includes('npm run build'));
    expect(lockCopy).toBeGreaterThanOrEqual(0);
    expect(install).toBeGreaterThan(lockCopy);
    expect(firstSource).toBeGreaterThan(install);
    expect(build).toBeGreaterThan(firstSource);
    expect(steps[build]!.argument).toMatch(/npm run build && npm prune --omit=dev/);
  });

  it('copies every folder the build compiles', () => {
    const { include } = JSON.parse(read('tsconfig.build.json')) as { include: string[] };
    const copied = steps.filter((step) => step.instruction === 'COPY').flatMap((step) => step.argument.split(' '));
    for (const path of include) expect(copied, path).toContain(path);
  });

  it('runs node itself as a numeric non-root user', () => {
    const lastFrom = steps.map((step) => step.instruction).lastIndexOf('FROM');
    const user = steps.slice(lastFrom).find((step) => step.instruction === 'USER');
    expect(user?.argument).toMatch(/^[1-9]\d*:[1-9]\d*$/);
    const entrypoint = steps.find((step) => step.instruction === 'ENTRYPOINT');
    expect(JSON.parse(entrypoint!.argument)).toEqual(['node', 'dist/main.js']);
  });
});

describe('deploy/kubernetes', () => {
  it('every container runs node on a compiled entry point, no npm or shell in the signal path', () => {
    expect(deployments.length).toBeGreaterThan(0);
    for (const container of deployments.flatMap(allContainers)) {
      expect(container.command[0], container.name).toBe('node');
      expect(container.command[1], container.name).toMatch(/^dist\/(main|cli\/tally)\.js$/);
    }
  });

  it('pods run as non-root on a read-only root, without capabilities or privilege escalation', () => {
    for (const deployment of deployments) {
      expect(deployment.spec.template.spec.securityContext.runAsNonRoot, deployment.metadata.name).toBe(true);
      for (const container of allContainers(deployment))
        expect(container.securityContext, container.name).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
    }
  });

  it('secrets come from the tally Secret, never as values in a manifest', () => {
    for (const container of deployments.flatMap(allContainers)) {
      const env = environment(container);
      for (const name of SECRETS)
        expect(env[name], `${container.name} ${name}`).toEqual({
          name,
          valueFrom: { secretKeyRef: { name: 'tally', key: name } },
        });
    }
  });

  it('the grace period outlasts the preStop pause plus SHUTDOWN_TIMEOUT_MS', () => {
    for (const deployment of deployments) {
      const pod = deployment.spec.template.spec;
      for (const container of pod.containers) {
        const shutdownMs = Number(environment(container).SHUTDOWN_TIMEOUT_MS?.value ?? 25_000);
        const preStop: string[] = container.lifecycle?.preStop?.exec?.command ?? [];
        const pauseMs = preStop[0] === 'sleep' ? Number(preStop[1]) * 1000 : 0;
        expect(pod.terminationGracePeriodSeconds * 1000, container.name).toBeGreaterThan(shutdownMs + pauseMs);
      }
    }
  });

  it('every Deployment has a PodDisruptionBudget selecting its pods', () => {
    const budgets = manifests.filter((manifest) => manifest.kind === 'PodDisruptionBudget');
    for (const deployment of deployments) {
      const labels = deployment.spec.template.metadata.labels;
      const budget = budgets.find((candidate) =>
        Object.entries<string>(candidate.spec.selector.matchLabels).every(([key, value]) => labels[key] === value),
      );
      expect(budget, deployment.metadata.name).toBeDefined();
    }
  });

  it('OCR workers run apart, and the worker Deployments together run every queue once', () => {
    const workers = deployments.flatMap((deployment) =>
      deployment.spec.template.spec.containers
        .filter((container: Json) => container.command.includes('worker'))
        .map((container: Json) => queuesOf(container.command)),
    );
    expect(workers).toContainEqual(['ocr']);
    expect(workers.flat().sort()).toEqual([...queueNames].sort());
  });

  it('migrations run before this release serves or works: an init container of every Deployment', () => {
    for (const deployment of deployments)
      expect(
        deployment.spec.template.spec.initContainers.map((container: Json) => container.command),
        deployment.metadata.name,
      ).toEqual([['node', 'dist/cli/tally.js', 'migrate']]);
    const api = deployments.find((deployment) => deployment.spec.template.spec.containers[0].command.includes('api'));
    // One new pod at a time, so a rollout's init containers do not run concurrently.
    expect(api.spec.strategy.rollingUpdate).toEqual({ maxSurge: 1, maxUnavailable: 0 });
  });

  it('each ServiceMonitor endpoint is a named port of pods behind the Service it selects', () => {
    const services = manifests.filter((manifest) => manifest.kind === 'Service');
    const monitors = manifests.filter((manifest) => manifest.kind === 'ServiceMonitor');
    expect(monitors.length).toBeGreaterThan(0);
    for (const monitor of monitors) {
      const matches = (labels: Record<string, string> = {}) =>
        Object.entries<string>(monitor.spec.selector.matchLabels).every(([key, value]) => labels[key] === value);
      const service = services.find((candidate) => matches(candidate.metadata.labels));
      expect(service, monitor.metadata.name).toBeDefined();
      for (const endpoint of monitor.spec.endpoints) {
        const servicePort = service.spec.ports.find((port: Json) => port.name === endpoint.port);
        expect(servicePort, endpoint.port).toBeDefined();
        const pods = deployments.filter((deployment) =>
          Object.entries<string>(service.spec.selector).every(
            ([key, value]) => deployment.spec.template.metadata.labels[key] === value,
          ),
        );
        expect(pods.length, monitor.metadata.name).toBeGreaterThan(0);
        for (const pod of pods)
          expect(
            pod.spec.template.spec.containers.flatMap((container: Json) =>
              container.ports.map((port: Json) => port.name),
            ),
          ).toContain(servicePort.targetPort);
        expect(endpoint.path).toBe('/metrics');
      }
    }
  });

  it('the API serves /metrics on METRICS_PORT, never on its public port', () => {
    const api = deployments.find((deployment) => deployment.spec.template.spec.containers[0].command.includes('api'));
    const [container] = api.spec.template.spec.containers;
    const metricsPort = container.env.find((variable: Json) => variable.name === 'METRICS_PORT')?.value;
    expect(container.ports).toContainEqual({ name: 'metrics', containerPort: Number(metricsPort) });
    const monitor = manifests.find(
      (manifest) => manifest.kind === 'ServiceMonitor' && manifest.spec.selector.matchLabels.app === 'tally-api',
    );
    expect(monitor.spec.endpoints.map((endpoint: Json) => endpoint.port)).toEqual(['metrics']);
  });
});

describe('docker-compose.yml', () => {
  it('app services run non-root on a read-only root, without capabilities', () => {
    expect(composeApps.length).toBeGreaterThan(0);
    for (const [name, service] of composeApps) {
      expect(service.user, name).toMatch(/^[1-9]\d*:[1-9]\d*$/);
      expect(service.read_only, name).toBe(true);
      expect(service.cap_drop, name).toEqual(['ALL']);
      expect(service.security_opt, name).toContain('no-new-privileges:true');
    }
  });

  it('secrets are read from .env, not written in the file', () => {
    for (const [name, service] of composeApps)
      for (const secret of ['DATABASE_URL', 'PLATFORM_TOKEN_SECRET'])
        expect(service.environment[secret], `${name} ${secret}`).toMatch(/\$\{[A-Z_]+:\?[^}]+\}/);
  });

  it('Docker waits longer than SHUTDOWN_TIMEOUT_MS before SIGKILL', () => {
    for (const [name, service] of composeApps) {
      const graceSeconds = Number(/^(\d+)s$/.exec(service.stop_grace_period)?.[1]);
      expect(graceSeconds * 1000, name).toBeGreaterThan(Number(service.environment.SHUTDOWN_TIMEOUT_MS));
    }
  });

  it('OCR workers run apart, and the worker services together run every queue once', () => {
    const workers = composeApps
      .map(([, service]) => service.command as string[] | undefined)
      .filter((command) => command?.[0] === 'worker')
      .map((command) => queuesOf(command!));
    expect(workers).toContainEqual(['ocr']);
    expect(workers.flat().sort()).toEqual([...queueNames].sort());
  });
});
