package dev.ecommsync.mongo;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.bson.Document;

import java.util.function.Function;

/**
 * What {@link LockingH2Database} and {@link LockingMemoryDatabase} add to mongo-java-server 1.47.0's
 * databases, so that commands creating the same collections at once (the services build their indexes
 * at boot, every model at once, several processes at once, and mongoose sends a {@code create} per
 * model) neither fail nor leave a broken collection. Decision 16, "Creating collections".
 *
 * <p>Two races in {@code AbstractMongoDatabase} / {@code AbstractMongoCollection}:
 * <ol>
 *   <li>{@code createCollectionOrThrowIfExists} (the {@code create} command, {@code $out},
 *       {@code $merge}) looks the collection up and creates it without the database's lock, which
 *       {@code AbstractSynchronizedMongoDatabase} takes only around {@code resolveOrCreateCollection}
 *       (the implicit creation by insert, update, findAndModify, createIndexes). Both find the
 *       collection missing and both create it: on H2 the second insert into {@code system.namespaces}
 *       fails ("Document with key 'db.coll' already existed in H2Collection(db.system.namespaces)");
 *       in memory the namespace is listed twice. Either way the second collection object replaces the
 *       first in the database's map, and the writes and indexes that went to the first are lost or
 *       not enforced; and a {@code create} makes the collection visible before its {@code _id} index
 *       exists, so documents inserted meanwhile are missing from it ("Expected one element but got
 *       zero" on a later update). The databases here take their lock around it.</li>
 *   <li>{@code AbstractMongoCollection.addIndex} builds the new index from the collection's documents
 *       and appends it to the collection's list of indexes without the collection's lock, while
 *       inserts and updates hold that lock and iterate the same list: a
 *       {@code ConcurrentModificationException} ("Unknown error: null"), or a document inserted
 *       during the build missing from the index. The databases here hold the collection's lock (the
 *       one its writes hold) while they add or drop one of its indexes.</li>
 * </ol>
 *
 * <p>Nothing changes for commands on collections that exist: they take no lock they did not take
 * before. The lock order is database, then collection, as in {@code createCollection} already; no
 * code holding a collection's lock waits for its database's.
 */
final class CollectionCreationLocks {

    private CollectionCreationLocks() {
    }

    /**
     * Runs {@code addIndex} (the database's own, under the database's lock) while holding the lock of
     * the collection the index description names, creating that collection first as addIndex would.
     */
    static <P> void addIndexLockingCollection(String databaseName, Document indexDescription,
                                              Function<String, MongoCollection<P>> resolveOrCreateCollection,
                                              Runnable addIndex) {
        String prefix = databaseName + ".";
        if (!(indexDescription.get("ns") instanceof String namespace) || !namespace.startsWith(prefix)) {
            addIndex.run(); // rejects the description as before
            return;
        }
        MongoCollection<P> collection = resolveOrCreateCollection.apply(namespace.substring(prefix.length()));
        synchronized (collection) {
            addIndex.run();
        }
    }

    /** Runs {@code dropIndex} while holding the collection's lock. */
    static void dropIndexLockingCollection(MongoCollection<?> collection, Runnable dropIndex) {
        synchronized (collection) {
            dropIndex.run();
        }
    }
}
