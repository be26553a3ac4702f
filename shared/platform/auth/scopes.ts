/** The scopes of docs/api-conventions.md#scopes. `admin:X` implies `read:X`. */
export const SCOPES = [
  'admin:receipts',
  'admin:events',
  'admin:users',
  'read:users',
  'read:event_types',
  'admin:event_types',
  'admin:reactors',
  'admin:rewards',
  'admin:rules',
  'admin:orders',
  'admin:vouchers',
  'admin:tenant',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function grantsScope(granted: readonly string[], required: Scope): boolean {
  if (granted.includes(required)) return true;
  const [action, resource] = required.split(':');
  return action === 'read' && granted.includes(`admin:${resource}`);
}
