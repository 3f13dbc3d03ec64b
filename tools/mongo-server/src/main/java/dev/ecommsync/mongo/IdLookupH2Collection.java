package dev.ecommsync.mongo;

import java.util.concurrent.atomic.LongAdder;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.bson.Document;
import org.h2.mvstore.MVMap;

/** mongo-java-server's H2 collection, a filter naming {@code _id} beside other fields, or an {@code _id} list alone, going by the {@code _id} index ({@link IdIndexLookup}). */
final class IdLookupH2Collection extends H2Collection {

    private final LongAdder examined;

    IdLookupH2Collection(MongoDatabase database, String collectionName, CollectionOptions options,
                         MVMap<Object, Document> dataMap, MVMap<String, Object> metaMap, CursorRegistry cursorRegistry) {
        super(database, collectionName, options, dataMap, metaMap, cursorRegistry);
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
    protected QueryResult queryDocuments(Document query, Document orderBy, int numberToSkip, int limit, int batchSize, Document fieldSelector) {
        Iterable<Object> positions = IdIndexLookup.positions(getIndexes(), query);
        return positions == null
            ? super.queryDocuments(query, orderBy, numberToSkip, limit, batchSize, fieldSelector)
            : matchDocuments(IdIndexLookup.rest(query), positions, orderBy, numberToSkip, limit, batchSize, fieldSelector);
    }
}
