import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261123011726 } from './Migration20261123011726.js';
import { Migration20261123015353 } from './Migration20261123015353.js';
import { Migration20261123015715 } from './Migration20261123015715.js';
import { Migration20261123020826 } from './Migration20261123020826.js';
import { Migration20261123105216 } from './Migration20261123105216.js';
import { Migration20261123123043 } from './Migration20261123123043.js';
import { Migration20261123123718 } from './Migration20261123123718.js';
import { Migration20261123124750 } from './Migration20261123124750.js';
import { Migration20261123125350 } from './Migration20261123125350.js';
import { Migration20261123133926 } from './Migration20261123133926.js';
import { Migration20261123161234 } from './Migration20261123161234.js';
import { Migration20261124190000 } from './Migration20261124190000.js';
import { Migration20261124190219 } from './Migration20261124190219.js';
import { Migration20261125052418 } from './Migration20261125052418.js';
import { Migration20261125074909 } from './Migration20261125074909.js';
import { Migration20261125080000 } from './Migration20261125080000.js';
import { Migration20261125163239 } from './Migration20261125163239.js';
import { Migration20261125171245 } from './Migration20261125171245.js';
import { Migration20261125200000 } from './Migration20261125200000.js';
import { Migration20261125221652 } from './Migration20261125221652.js';
import { Migration20261126011620 } from './Migration20261126011620.js';
import { Migration20261126012436 } from './Migration20261126012436.js';
import { Migration20261126031615 } from './Migration20261126031615.js';
import { Migration20261127221516 } from './Migration20261127221516.js';
import { Migration20261127222749 } from './Migration20261127222749.js';
import { Migration20261128005843 } from './Migration20261128005843.js';
import { Migration20261128005848 } from './Migration20261128005848.js';
import { Migration20261128041500 } from './Migration20261128041500.js';
import { Migration20261128041855 } from './Migration20261128041855.js';
import { Migration20261128042007 } from './Migration20261128042007.js';
import { Migration20261128051443 } from './Migration20261128051443.js';
import { Migration20261128091806 } from './Migration20261128091806.js';
import { Migration20261128091837 } from './Migration20261128091837.js';
import { Migration20261128093307 } from './Migration20261128093307.js';
import { Migration20261128094052 } from './Migration20261128094052.js';
import { Migration20261128100628 } from './Migration20261128100628.js';
import { Migration20261128115000 } from './Migration20261128115000.js';
import { Migration20261128134155 } from './Migration20261128134155.js';
import { Migration20261128135030 } from './Migration20261128135030.js';
import { Migration20261128150000 } from './Migration20261128150000.js';
import { Migration20261202000000 } from './Migration20261202000000.js';
import type { MigrationSecrets } from './migration-secrets.js';

/**
 * Applied in this order; a new migration is generated with `npx tsx shared/migrations/create-migration.ts`
 * and added here. Those that rewrite stored values under a key are given the platform secret.
 */
export const migrationsList = (secrets: MigrationSecrets): MigrationObject[] => [
  { name: 'Migration20261123011726', class: Migration20261123011726 },
  { name: 'Migration20261123015353', class: Migration20261123015353 },
  { name: 'Migration20261123015715', class: Migration20261123015715 },
  { name: 'Migration20261123020826', class: Migration20261123020826 },
  { name: 'Migration20261123105216', class: Migration20261123105216 },
  { name: 'Migration20261123123043', class: Migration20261123123043 },
  { name: 'Migration20261123123718', class: Migration20261123123718 },
  { name: 'Migration20261123124750', class: Migration20261123124750 },
  { name: 'Migration20261123125350', class: Migration20261123125350 },
  { name: 'Migration20261123133926', class: Migration20261123133926 },
  { name: 'Migration20261123161234', class: Migration20261123161234 },
  { name: 'Migration20261124190000', class: Migration20261124190000 },
  { name: 'Migration20261124190219', class: Migration20261124190219 },
  { name: 'Migration20261125052418', class: Migration20261125052418 },
  { name: 'Migration20261125074909', class: Migration20261125074909 },
  { name: 'Migration20261125080000', class: Migration20261125080000 },
  { name: 'Migration20261125163239', class: Migration20261125163239 },
  { name: 'Migration20261125171245', class: Migration20261125171245 },
  { name: 'Migration20261125200000', class: Migration20261125200000 },
  { name: 'Migration20261125221652', class: Migration20261125221652 },
  { name: 'Migration20261126011620', class: Migration20261126011620 },
  { name: 'Migration20261126012436', class: Migration20261126012436 },
  { name: 'Migration20261126031615', class: Migration20261126031615 },
  { name: 'Migration20261127221516', class: Migration20261127221516 },
  { name: 'Migration20261127222749', class: Migration20261127222749 },
  { name: 'Migration20261128005843', class: Migration20261128005843 },
  { name: 'Migration20261128005848', class: Migration20261128005848 },
  { name: 'Migration20261128041500', class: Migration20261128041500 },
  { name: 'Migration20261128041855', class: Migration20261128041855 },
  { name: 'Migration20261128042007', class: Migration20261128042007 },
  { name: 'Migration20261128051443', class: Migration20261128051443 },
  { name: 'Migration20261128091806', class: Migration20261128091806(secrets) },
  { name: 'Migration20261128091837', class: Migration20261128091837(secrets) },
  { name: 'Migration20261128093307', class: Migration20261128093307 },
  { name: 'Migration20261128094052', class: Migration20261128094052 },
  { name: 'Migration20261128100628', class: Migration20261128100628 },
  { name: 'Migration20261128115000', class: Migration20261128115000 },
  { name: 'Migration20261128134155', class: Migration20261128134155 },
  { name: 'Migration20261128135030', class: Migration20261128135030 },
  { name: 'Migration20261128150000', class: Migration20261128150000(secrets) },
  { name: 'Migration20261202000000', class: Migration20261202000000 },
];
