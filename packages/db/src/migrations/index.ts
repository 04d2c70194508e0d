import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121192523 } from './Migration20261121192523.ts';
import { Migration20261121195009 } from './Migration20261121195009.ts';
import { Migration20261121230000 } from './Migration20261121230000.ts';
import { Migration20261122211445 } from './Migration20261122211445.ts';
import { Migration20261122235858 } from './Migration20261122235858.ts';
import { Migration20261123001000 } from './Migration20261123001000.ts';
import { Migration20261125175006 } from './Migration20261125175006.ts';
import { Migration20261125204127 } from './Migration20261125204127.ts';
import { Migration20261125221910 } from './Migration20261125221910.ts';
import { Migration20261125235921 } from './Migration20261125235921.ts';
import { Migration20261126015446 } from './Migration20261126015446.ts';
import { Migration20261126020355 } from './Migration20261126020355.ts';
import { Migration20261126020527 } from './Migration20261126020527.ts';
import { Migration20261126050000 } from './Migration20261126050000.ts';
import { Migration20261127043557 } from './Migration20261127043557.ts';
import { Migration20261127045120 } from './Migration20261127045120.ts';
import { Migration20261127071829 } from './Migration20261127071829.ts';
import { Migration20261127095424 } from './Migration20261127095424.ts';
import { Migration20261127140000 } from './Migration20261127140000.ts';
import { Migration20261127150000 } from './Migration20261127150000.ts';
import { Migration20261127160000 } from './Migration20261127160000.ts';

/** Applied in this order on PGlite and PostgreSQL alike; `name` is what the migrations table records. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121192523', class: Migration20261121192523 },
  { name: 'Migration20261121195009', class: Migration20261121195009 },
  { name: 'Migration20261121230000', class: Migration20261121230000 },
  { name: 'Migration20261122211445', class: Migration20261122211445 },
  { name: 'Migration20261122235858', class: Migration20261122235858 },
  { name: 'Migration20261123001000', class: Migration20261123001000 },
  { name: 'Migration20261125175006', class: Migration20261125175006 },
  { name: 'Migration20261125204127', class: Migration20261125204127 },
  { name: 'Migration20261125221910', class: Migration20261125221910 },
  { name: 'Migration20261125235921', class: Migration20261125235921 },
  { name: 'Migration20261126015446', class: Migration20261126015446 },
  { name: 'Migration20261126020355', class: Migration20261126020355 },
  { name: 'Migration20261126020527', class: Migration20261126020527 },
  { name: 'Migration20261126050000', class: Migration20261126050000 },
  { name: 'Migration20261127043557', class: Migration20261127043557 },
  { name: 'Migration20261127045120', class: Migration20261127045120 },
  { name: 'Migration20261127071829', class: Migration20261127071829 },
  { name: 'Migration20261127095424', class: Migration20261127095424 },
  { name: 'Migration20261127140000', class: Migration20261127140000 },
  { name: 'Migration20261127150000', class: Migration20261127150000 },
  { name: 'Migration20261127160000', class: Migration20261127160000 },
];
