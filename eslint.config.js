import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    // Issue 17: request bodies reached entities wholesale through open update schemas. PATCH bodies
    // are built by changesSchema() and copied field by field by copyWritableFields().
    files: ['api/**/*.ts', 'shared/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name='Type'][callee.property.name='Partial']", message: 'Type.Partial opens the schema: use changesSchema()' },
        { selector: "CallExpression[callee.property.name='assign'][callee.object.name!='Object']", message: 'Copy named writable fields with copyWritableFields(), never a whole object' },
      ],
    },
  },
  {
    files: ['shared/migrations/create-migration.ts'],
    rules: { 'no-console': 'off' },
  },
);
