import { createRequire } from 'node:module';

type OpenCv = typeof import('@techstark/opencv-js');

/** OpenCV's WebAssembly build did not finish compiling in the time a read may wait for it. */
export class OpenCvUnavailableError extends Error {
  constructor(limitMs: number) {
    super(`OpenCV's WebAssembly runtime was not ready after ${limitMs / 1000} s`);
    this.name = 'OpenCvUnavailableError';
  }
}

/**
 * OpenCV is required, not imported: the module is a thenable until it is ready, and an `import`
 * that a test runner awaits would chase its `then` for ever.
 */
export const openCv = (): OpenCv => createRequire(import.meta.url)('@techstark/opencv-js') as OpenCv;

let initialised: Promise<void> | undefined;

/**
 * OpenCV's WebAssembly build compiles in the background after it is required, and announces it
 * through one `onRuntimeInitialized` slot: one promise, made once, serves every reader of the
 * process (a second reader that took the slot over would leave the first waiting for ever).
 */
function initialisation(): Promise<void> {
  initialised ??= new Promise((resolve) => {
    const module = openCv() as unknown as { Mat?: unknown; onRuntimeInitialized?: () => void };
    if (typeof module.Mat === 'function') return resolve();
    const previous = module.onRuntimeInitialized;
    module.onRuntimeInitialized = () => {
      previous?.();
      resolve();
    };
  });
  return initialised;
}

/** Resolves once OpenCV can be used; rejects after `limitMs` (a minute: it compiles in seconds even on a busy machine). */
export async function openCvReady(limitMs = 60_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OpenCvUnavailableError(limitMs)), limitMs);
  });
  try {
    await Promise.race([initialisation(), late]);
  } finally {
    clearTimeout(timer);
  }
}
