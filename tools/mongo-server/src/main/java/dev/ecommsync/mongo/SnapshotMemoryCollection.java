package dev.ecommsync.mongo;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.Cursor;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.QueryParameters;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.memory.MemoryCollection;
import de.bwaldvogel.mongo.bson.Document;

/**
 * An in-memory collection whose reads return copies taken under the collection's lock.
 *
 * <p>mongo-java-server updates a stored document in place, key by key, under the lock, and its
 * reads return the stored documents themselves, encoded for the wire after the lock is released.
 * A read overlapping an update could so carry the new {@code rev} with an old field, and a
 * compare-and-set on that {@code rev} then wrote the old field back: a lost update (decision 15,
 * addendum of 2026-11-27). A shallow copy is enough: an update replaces a document's top-level
 * values with new objects and never changes a value it replaced.
 */
final class SnapshotMemoryCollection extends MemoryCollection {

    private final LongAdder examined;

    /** True while findAndModify runs: it finds the stored document through handleQuery and updates what it found. */
    private boolean modifying;

    SnapshotMemoryCollection(MongoDatabase database, String collectionName, CollectionOptions options, CursorRegistry cursorRegistry) {
        super(database, collectionName, options, cursorRegistry);
        this.examined = DocumentsExamined.of(getFullName());
    }

    @Override
    public void drop() {
        super.drop();
        DocumentsExamined.forget(getFullName());
    }

    @Override
    protected boolean documentMatchesQuery(Document document, Document query) {
        examined.increment();
        return super.documentMatchesQuery(document, query);
    }

    @Override
    public synchronized QueryResult handleQuery(QueryParameters queryParameters) {
        QueryResult result = super.handleQuery(queryParameters);
        return modifying ? result : new QueryResult(copies(result), result.getCursorId());
    }

    @Override
    public synchronized Document findAndModify(Document query) {
        modifying = true;
        try {
            Document result = super.findAndModify(query);
            if (result != null && result.get("value") instanceof Document value) {
                result.put("value", value.clone());
            }
            return result;
        } finally {
            modifying = false;
        }
    }

    /**
     * No running total of the documents' size: mongo-java-server keeps it by encoding the whole
     * document to BSON on every insert and delete, and the old and the new document on every update,
     * only for {@code collStats} and {@code dbStats}, which nothing of ours reads (they report a size
     * of 0 here). In the end-to-end bench it was two thirds of the server's time in inserts.
     */
    @Override
    protected boolean tracksDataSize() {
        return false;
    }

    /** A filter naming {@code _id} beside other fields, or an {@code _id} list alone, goes by the {@code _id} index ({@link IdIndexLookup}). */
    @Override
    protected QueryResult queryDocuments(Document query, Document orderBy, int numberToSkip, int limit, int batchSize, Document fieldSelector) {
        Iterable<Integer> positions = IdIndexLookup.positions(getIndexes(), query);
        return positions == null
            ? super.queryDocuments(query, orderBy, numberToSkip, limit, batchSize, fieldSelector)
            : matchDocuments(IdIndexLookup.rest(query), positions, orderBy, numberToSkip, limit, batchSize, fieldSelector);
    }

    /** The documents after a query's first batch, kept for later batches: copied under the lock too. */
    @Override
    protected Cursor createCursor(List<Document> remainingDocuments) {
        return super.createCursor(copies(remainingDocuments));
    }

    private static List<Document> copies(Iterable<Document> documents) {
        List<Document> copies = new ArrayList<>();
        for (Document document : documents) {
            copies.add(document.clone());
        }
        return copies;
    }
}
