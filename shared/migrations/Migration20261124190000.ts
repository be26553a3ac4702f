import { Migration } from '@mikro-orm/migrations';

/**
 * Event ids in blocks of 1,000 instead of 100 (EventIdAllocator reads the step from the sequence):
 * at POS-fleet volume a block fetch every hundred events was a PostgreSQL round trip ten times a
 * second per API process. A restart skips at most the rest of a block; ids are never reused.
 */
export class Migration20261124190000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter sequence "event_id_seq" increment by 1000;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter sequence "event_id_seq" increment by 100;`);
  }

}
