import { Type } from 'typebox';

/** When a resource was made and last changed (ISO 8601), as every resource answers them. */
export const TIMESTAMPS = {
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
};
