/** The promise's outcome, or a rejection once `ms` have passed without one (the promise runs on). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref();
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
