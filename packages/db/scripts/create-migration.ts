// Writes a migration for the difference between the entities and the committed snapshot:
// `npm run migration:create -w @lfk/db`, then add the new class to src/migrations/index.ts.
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/pglite';
import { MIGRATIONS } from '../src/database.ts';
import { entities } from '../src/entities/index.ts';

const orm = await MikroORM.init({
  entities,
  dbName: 'memory://',
  extensions: [Migrator],
  migrations: { ...MIGRATIONS, emit: 'ts' },
});
await orm.migrator.up();
const result = await orm.migrator.create();
console.log(result.fileName ? `wrote ${result.fileName}` : 'no changes');
await orm.close(true);
