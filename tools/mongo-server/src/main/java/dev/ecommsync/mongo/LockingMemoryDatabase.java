package dev.ecommsync.mongo;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.Document;

/** mongo-java-server's in-memory database, creating collections and indexes atomically ({@link CollectionCreationLocks}). */
final class LockingMemoryDatabase extends MemoryDatabase {

    LockingMemoryDatabase(String databaseName, CursorRegistry cursorRegistry) {
        super(databaseName, cursorRegistry);
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
