package dev.ecommsync.mongo;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.memory.MemoryCollection;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.Document;

/**
 * mongo-java-server's in-memory database, creating collections and indexes atomically
 * ({@link CollectionCreationLocks}), with collections whose reads are copies ({@link SnapshotMemoryCollection}).
 */
final class LockingMemoryDatabase extends MemoryDatabase {

    private final CursorRegistry cursors;

    LockingMemoryDatabase(String databaseName, CursorRegistry cursorRegistry) {
        super(databaseName, cursorRegistry);
        this.cursors = cursorRegistry;
    }

    @Override
    protected MemoryCollection openOrCreateCollection(String collectionName, CollectionOptions options) {
        return new SnapshotMemoryCollection(this, collectionName, options, cursors);
    }

    @Override
    public synchronized MongoCollection<Integer> createCollectionOrThrowIfExists(String collectionName, CollectionOptions options) {
        return super.createCollectionOrThrowIfExists(collectionName, options);
    }

    @Override
    protected synchronized void addIndex(Document indexDescription) {
        CollectionCreationLocks.addIndexLockingCollection(getDatabaseName(), indexDescription, this::resolveOrCreateCollection,
            () -> super.addIndex(indexDescription));
    }

    @Override
    protected void dropIndex(MongoCollection<Integer> collection, String indexName) {
        CollectionCreationLocks.dropIndexLockingCollection(collection, () -> super.dropIndex(collection, indexName));
    }
}
