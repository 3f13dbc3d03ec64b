package dev.ecommsync.mongo;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.Document;
import org.h2.mvstore.MVStore;

/** mongo-java-server's H2 database, creating collections and indexes atomically ({@link CollectionCreationLocks}). */
final class LockingH2Database extends H2Database {

    LockingH2Database(String databaseName, MVStore mvStore, CursorRegistry cursorRegistry) {
        super(databaseName, mvStore, cursorRegistry);
    }

    @Override
    public synchronized MongoCollection<Object> createCollectionOrThrowIfExists(String collectionName, CollectionOptions options) {
        return super.createCollectionOrThrowIfExists(collectionName, options);
    }

    @Override
    protected synchronized void addIndex(Document indexDescription) {
        CollectionCreationLocks.addIndexLockingCollection(getDatabaseName(), indexDescription, this::resolveOrCreateCollection,
            () -> super.addIndex(indexDescription));
    }

    @Override
    protected void dropIndex(MongoCollection<Object> collection, String indexName) {
        CollectionCreationLocks.dropIndexLockingCollection(collection, () -> super.dropIndex(collection, indexName));
    }
}
