/** Who is calling, beyond the tenant named by the API key. */
export type Principal = { kind: 'admin'; subject: string; scopes: string[] } | { kind: 'user'; authIdentifier: string };
