package dev.ecommsync.mongo;

import java.lang.reflect.Field;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.Document;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * mongo-java-server's H2 database, creating collections and indexes atomically ({@link CollectionCreationLocks}),
 * with collections that look a filter's {@code _id} up in its index ({@link IdLookupH2Collection}).
 */
final class LockingH2Database extends H2Database {

    /** H2Database's names of a collection's maps in the store (its private DATABASES_PREFIX and META_PREFIX). */
    private static final String DATA_MAP_PREFIX = "databases.";
    private static final String META_MAP_PREFIX = "meta.";
    /** H2Database's store: read from its private field, as H2Database's constructor opens the collections already in the file before any field of this class is set. */
    private static final Field STORE = storeField();

    LockingH2Database(String databaseName, MVStore mvStore, CursorRegistry cursorRegistry) {
        super(databaseName, mvStore, cursorRegistry);
    }

    @Override
    protected MongoCollection<Object> openOrCreateCollection(String collectionName, CollectionOptions options) {
        MVStore store = store();
        String fullName = getFullCollectionNamespace(collectionName);
        MVMap<Object, Document> dataMap = store.openMap(DATA_MAP_PREFIX + fullName);
        MVMap<String, Object> metaMap = store.openMap(META_MAP_PREFIX + fullName);
        return new IdLookupH2Collection(this, collectionName, options, dataMap, metaMap, cursorRegistry);
    }

    private MVStore store() {
        try {
            return (MVStore) STORE.get(this);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Field storeField() {
        try {
            Field field = H2Database.class.getDeclaredField("mvStore");
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("mongo-java-server's H2Database has no mvStore field: check IdLookupH2Collection against its version", e);
        }
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
