/* assimp_read.c — inside the guarded child: assimp reads the model through kiln's own file
 * hooks (the model from memory; other files only as safe relative names under the model's
 * folder, each recorded), then the parts kiln uses are written out as the blob of
 * assimp_private.h. Nothing here runs in the parent process. */
#define _GNU_SOURCE
#include "import/assimp_private.h"

#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/file.h"
#include "core/path.h"
#include "core/reader.h"
#include "import/assimp_dl.h"

/* ---- the blob writer (libc memory: this process ends once it is sent) ---------------------- */

typedef struct wbuf {
    uint8_t *p;
    size_t n, cap;
    bool failed;
} wbuf;

static void put(wbuf *b, const void *d, size_t n)
{
    if (b->failed) return;
    if (b->cap - b->n < n) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->n < n) {
            if (cap > SIZE_MAX / 2) {
                b->failed = true;
                return;
            }
            cap *= 2;
        }
        uint8_t *np = realloc(b->p, cap);
        if (!np) {
            b->failed = true;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->n, d, n);
    b->n += n;
}

/* The blob is little-endian; the parent reads it with kiln_reader. Arrays of floats and indices
 * are put as this process holds them: x86 and arm64 are little-endian too. */
static void put_u32(wbuf *b, uint32_t v)
{
    uint8_t t[4];
    kiln_store_u32le(t, v);
    put(b, t, 4);
}
static void put_u64(wbuf *b, uint64_t v)
{
    uint8_t t[8];
    kiln_store_u64le(t, v);
    put(b, t, 8);
}
static void put_i32(wbuf *b, int32_t v) { put_u32(b, (uint32_t)v); }
static void put_f32(wbuf *b, float v) { put_u32(b, kiln_f32_bits(v)); }
static void put_f64(wbuf *b, double v) { put_u64(b, kiln_f64_bits(v)); }
static void put_strn(wbuf *b, const char *s, size_t n)
{
    put_u32(b, (uint32_t)n);
    put(b, s, n);
}
static void put_str(wbuf *b, const char *s) { put_strn(b, s, strlen(s)); }
static void put_aistr(wbuf *b, const struct aiString *s)
{
    put_strn(b, s->data, s->length < MAXLEN ? s->length : MAXLEN - 1);
}

/* Column-major floats of assimp's row-major matrix. */
static void put_matrix(wbuf *b, const struct aiMatrix4x4 *m)
{
    const float f[16] = {m->a1, m->b1, m->c1, m->d1, m->a2, m->b2, m->c2, m->d2,
                         m->a3, m->b3, m->c3, m->d3, m->a4, m->b4, m->c4, m->d4};
    put(b, f, sizeof f);
}

static bool send_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

static int send_error(int fd, kiln_result code, const char *msg)
{
    wbuf b = {0};
    put_u32(&b, ASSIMP_ERROR_MAGIC);
    put_u32(&b, (uint32_t)code);
    put_str(&b, msg);
    bool ok = !b.failed && send_all(fd, b.p, b.n);
    free(b.p);
    return ok ? 0 : 1;
}

/* ---- files: the model from memory, others confined to its folder ----------------------------- */

typedef struct mem_file {
    const uint8_t *data;
    size_t size, pos;
    uint8_t *owned;
} mem_file;

typedef struct io_state {
    const assimp_job *job;
    const char *model_name; /* the name assimp is given for the model itself */
    char **names;           /* files asked for, normalised, once each */
    bool *found;
    uint32_t count, cap;
    wbuf *warnings;
    uint32_t *warning_count;
} io_state;

static size_t f_read(struct aiFile *f, char *buf, size_t size, size_t count)
{
    mem_file *m = (mem_file *)f->UserData;
    if (!size) return 0;
    size_t left = m->size - m->pos, items = left / size;
    if (items > count) items = count;
    memcpy(buf, m->data + m->pos, items * size);
    m->pos += items * size;
    return items;
}
static size_t f_write(struct aiFile *f, const char *buf, size_t size, size_t count)
{
    (void)f, (void)buf, (void)size, (void)count;
    return 0;
}
static size_t f_tell(struct aiFile *f) { return ((mem_file *)f->UserData)->pos; }
static size_t f_size(struct aiFile *f) { return ((mem_file *)f->UserData)->size; }
static void f_flush(struct aiFile *f) { (void)f; }
static enum aiReturn f_seek(struct aiFile *f, size_t offset, enum aiOrigin origin)
{
    mem_file *m = (mem_file *)f->UserData;
    size_t base = origin == aiOrigin_SET ? 0 : origin == aiOrigin_CUR ? m->pos : m->size;
    if (origin == aiOrigin_END) {
        if (offset > m->size) return aiReturn_FAILURE;
        m->pos = m->size - offset; /* assimp passes a distance back from the end */
        return aiReturn_SUCCESS;
    }
    if (offset > m->size - base) return aiReturn_FAILURE;
    m->pos = base + offset;
    return aiReturn_SUCCESS;
}

static struct aiFile *open_mem(const uint8_t *data, size_t size, uint8_t *owned)
{
    struct aiFile *f = calloc(1, sizeof *f);
    mem_file *m = calloc(1, sizeof *m);
    if (!f || !m) {
        free(f), free(m), free(owned);
        return NULL;
    }
    m->data = data, m->size = size, m->owned = owned;
    f->ReadProc = f_read, f->WriteProc = f_write, f->TellProc = f_tell;
    f->FileSizeProc = f_size, f->SeekProc = f_seek, f->FlushProc = f_flush;
    f->UserData = (aiUserData)m;
    return f;
}

static void record(io_state *io, const char *rel, bool found)
{
    for (uint32_t i = 0; i < io->count; i++)
        if (strcmp(io->names[i], rel) == 0) {
            io->found[i] = io->found[i] || found;
            return;
        }
    if (io->count == io->cap) {
        uint32_t cap = io->cap ? io->cap * 2 : 8;
        char **n = realloc(io->names, cap * sizeof *n);
        if (n) io->names = n;
        bool *fo = realloc(io->found, cap * sizeof *fo);
        if (fo) io->found = fo;
        if (!n || !fo) return;
        io->cap = cap;
    }
    char *copy = strdup(rel);
    if (!copy) return;
    io->names[io->count] = copy;
    io->found[io->count++] = found;
}

static uint8_t *read_whole(const char *path, size_t *size)
{
    /* A FIFO (or a device) must not block the child in open(): O_NONBLOCK, then only a regular
     * file is read, as kiln_file_read does for sources. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return NULL;
    struct stat st;
    uint8_t *buf = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size <= ASSIMP_MAX_FILE &&
        (buf = malloc((size_t)st.st_size + 1))) {
        size_t n = 0, want = (size_t)st.st_size;
        while (n < want) {
            ssize_t got = read(fd, buf + n, want - n);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) break;
            n += (size_t)got;
        }
        *size = n;
    }
    close(fd);
    return buf;
}

static struct aiFile *io_open(struct aiFileIO *fio, const char *name, const char *mode)
{
    io_state *io = (io_state *)fio->UserData;
    if (!name || !mode || strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+')) return NULL;
    if (strcmp(name, io->model_name) == 0) return open_mem(io->job->data, io->job->size, NULL);
    char rel[KILN_PATH_MAX];
    size_t n = strlen(name);
    if (n >= sizeof rel) return NULL;
    for (size_t i = 0; i <= n; i++) rel[i] = name[i] == '\\' ? '/' : name[i];
    char *r = rel;
    while (r[0] == '.' && r[1] == '/') r += 2;
    if (!*r) return NULL;
    /* assimp's OBJ reader also tries "<model name>.mtl"; the model's name here is kiln's own. */
    if (strstr(r, "kiln-model.")) return NULL;
    if (!kiln_path_is_safe_relative(r)) {
        char text[KILN_PATH_MAX + 96];
        snprintf(text, sizeof text,
                 "\"%s\" (asked for by the model) was not read: not a plain "
                 "relative name inside the model's folder",
                 name);
        put_str(io->warnings, text);
        (*io->warning_count)++;
        return NULL;
    }
    if (!io->job->base_dir) {
        record(io, r, false);
        return NULL;
    }
    char path[KILN_PATH_MAX], real[KILN_PATH_MAX];
    if (kiln_path_join(io->job->base_dir, r, path, sizeof path, NULL) != KILN_OK) return NULL;
    /* base_dir is resolved (assimp.c); a symlink out of it is not followed. */
    if (kiln_path_resolve(path, real, sizeof real, NULL) != KILN_OK ||
        !kiln_path_is_within(io->job->base_dir, real)) {
        record(io, r, false);
        return NULL;
    }
    size_t size = 0;
    uint8_t *data = read_whole(real, &size);
    record(io, r, data != NULL);
    return data ? open_mem(data, size, data) : NULL;
}

static void io_close(struct aiFileIO *fio, struct aiFile *f)
{
    (void)fio;
    if (!f) return;
    mem_file *m = (mem_file *)f->UserData;
    free(m->owned);
    free(m);
    free(f);
}

/* ---- the parts
 * ----------------------------------------------------------------------------------- */

static void put_meta(wbuf *b, const struct aiScene *s)
{
    double unit = 0;
    int32_t axes[6] = {-1, -1, -1, -1, -1, -1};
    static const char *const keys[6] = {"UpAxis",        "UpAxisSign", "FrontAxis",
                                        "FrontAxisSign", "CoordAxis",  "CoordAxisSign"};
    const struct aiMetadata *m = s->mMetaData;
    for (unsigned i = 0; m && i < m->mNumProperties; i++) {
        const char *k = m->mKeys[i].data;
        const struct aiMetadataEntry *e = &m->mValues[i];
        if (!e->mData) continue;
        if (strcmp(k, "UnitScaleFactor") == 0) {
            if (e->mType == AI_DOUBLE) unit = *(const double *)e->mData;
            else if (e->mType == AI_FLOAT) unit = *(const float *)e->mData;
        }
        for (int a = 0; a < 6; a++)
            if (strcmp(k, keys[a]) == 0 && e->mType == AI_INT32)
                axes[a] = *(const int32_t *)e->mData;
    }
    put_f64(b, unit);
    for (int a = 0; a < 6; a++) put_i32(b, axes[a]);
}

static void put_embedded(wbuf *b, const struct aiScene *s)
{
    put_u32(b, s->mNumTextures);
    for (unsigned i = 0; i < s->mNumTextures; i++) {
        const struct aiTexture *t = s->mTextures[i];
        put_aistr(b, &t->mFilename);
        put_strn(b, t->achFormatHint, strnlen(t->achFormatHint, sizeof t->achFormatHint));
        put_u32(b, t->mWidth);
        put_u32(b, t->mHeight);
        size_t bytes = t->mHeight ? (size_t)t->mWidth * t->mHeight * 4 : t->mWidth;
        if (!t->pcData || bytes > UINT32_MAX) bytes = 0;
        put_u32(b, (uint32_t)bytes);
        put(b, t->pcData, bytes);
    }
}

static void put_materials(wbuf *b, const struct aiScene *s, const assimp_api *ai)
{
    put_u32(b, s->mNumMaterials);
    for (unsigned i = 0; i < s->mNumMaterials; i++) {
        const struct aiMaterial *m = s->mMaterials[i];
        struct aiString name = {0};
        ai->GetMaterialString(m, AI_MATKEY_NAME, &name);
        put_aistr(b, &name);
        struct aiColor4D c = {1, 1, 1, 1}, e = {0, 0, 0, 1};
        if (ai->GetMaterialColor(m, AI_MATKEY_BASE_COLOR, &c) != aiReturn_SUCCESS &&
            ai->GetMaterialColor(m, AI_MATKEY_COLOR_DIFFUSE, &c) != aiReturn_SUCCESS)
            c = (struct aiColor4D){1, 1, 1, 1};
        ai->GetMaterialColor(m, AI_MATKEY_COLOR_EMISSIVE, &e);
        ai_real opacity = 1, shininess = -1, metallic = -1, roughness = -1;
        ai->GetMaterialFloatArray(m, AI_MATKEY_OPACITY, &opacity, NULL);
        ai->GetMaterialFloatArray(m, AI_MATKEY_SHININESS, &shininess, NULL);
        ai->GetMaterialFloatArray(m, AI_MATKEY_METALLIC_FACTOR, &metallic, NULL);
        ai->GetMaterialFloatArray(m, AI_MATKEY_ROUGHNESS_FACTOR, &roughness, NULL);
        int two_sided = 0, shading = 0;
        ai->GetMaterialIntegerArray(m, AI_MATKEY_TWOSIDED, &two_sided, NULL);
        ai->GetMaterialIntegerArray(m, AI_MATKEY_SHADING_MODEL, &shading, NULL);
        put_f32(b, c.r), put_f32(b, c.g), put_f32(b, c.b), put_f32(b, c.a);
        put_f32(b, e.r), put_f32(b, e.g), put_f32(b, e.b);
        put_f32(b, opacity), put_f32(b, shininess), put_f32(b, metallic), put_f32(b, roughness);
        put_u32(b, (two_sided ? ASSIMP_MAT_TWO_SIDED : 0) |
                       (shading == aiShadingMode_NoShading ? ASSIMP_MAT_UNLIT : 0));
        uint32_t count = 0;
        for (int t = 1; t <= AI_TEXTURE_TYPE_MAX; t++)
            count += ai->GetMaterialTextureCount(m, (enum aiTextureType)t);
        put_u32(b, count);
        for (int t = 1; t <= AI_TEXTURE_TYPE_MAX; t++) {
            unsigned n = ai->GetMaterialTextureCount(m, (enum aiTextureType)t);
            for (unsigned k = 0; k < n; k++) {
                struct aiString path = {0};
                enum aiTextureMapping mapping = aiTextureMapping_UV;
                unsigned uv = 0;
                enum aiTextureMapMode modes[3] = {aiTextureMapMode_Wrap, aiTextureMapMode_Wrap,
                                                  aiTextureMapMode_Wrap};
                ai->GetMaterialTexture(m, (enum aiTextureType)t, k, &path, &mapping, &uv, NULL,
                                       NULL, modes, NULL);
                put_u32(b, (uint32_t)t);
                put_u32(b, uv);
                put_u32(b, ((uint32_t)modes[0] & 0xFF) | (((uint32_t)mapping & 0xFF) << 8));
                put_aistr(b, &path);
            }
        }
    }
}

static void put_mesh(wbuf *b, const struct aiMesh *m, uint32_t triangles)
{
    uint32_t v = m->mNumVertices;
    put_aistr(b, &m->mName);
    put_u32(b, m->mMaterialIndex);
    put_u32(b, v);
    put_u32(b, triangles * 3);
    bool tangents = m->mNormals && m->mTangents && m->mBitangents;
    put_u32(b, (m->mNormals ? ASSIMP_MESH_NORMALS : 0) | (tangents ? ASSIMP_MESH_TANGENTS : 0));
    uint32_t uvs = 0, colors = 0;
    while (uvs < AI_MAX_NUMBER_OF_TEXTURECOORDS && m->mTextureCoords[uvs]) uvs++;
    while (colors < AI_MAX_NUMBER_OF_COLOR_SETS && m->mColors[colors]) colors++;
    put_u32(b, uvs);
    put_u32(b, colors);
    for (uint32_t i = 0; i < v; i++)
        put_f32(b, m->mVertices[i].x), put_f32(b, m->mVertices[i].y), put_f32(b, m->mVertices[i].z);
    if (m->mNormals)
        for (uint32_t i = 0; i < v; i++)
            put_f32(b, m->mNormals[i].x), put_f32(b, m->mNormals[i].y),
                put_f32(b, m->mNormals[i].z);
    if (tangents)
        for (uint32_t i = 0; i < v; i++) {
            const struct aiVector3D n = m->mNormals[i], t = m->mTangents[i], bt = m->mBitangents[i];
            float cx = n.y * t.z - n.z * t.y, cy = n.z * t.x - n.x * t.z,
                  cz = n.x * t.y - n.y * t.x;
            put_f32(b, t.x), put_f32(b, t.y), put_f32(b, t.z);
            put_f32(b, cx * bt.x + cy * bt.y + cz * bt.z < 0 ? -1.0f : 1.0f);
        }
    for (uint32_t k = 0; k < uvs; k++)
        for (uint32_t i = 0; i < v; i++)
            put_f32(b, m->mTextureCoords[k][i].x), put_f32(b, m->mTextureCoords[k][i].y);
    for (uint32_t k = 0; k < colors; k++)
        for (uint32_t i = 0; i < v; i++)
            put_f32(b, m->mColors[k][i].r), put_f32(b, m->mColors[k][i].g),
                put_f32(b, m->mColors[k][i].b), put_f32(b, m->mColors[k][i].a);
    for (uint32_t f = 0; f < m->mNumFaces; f++)
        if (m->mFaces[f].mNumIndices == 3)
            for (int k = 0; k < 3; k++) put_u32(b, m->mFaces[f].mIndices[k]);
    put_u32(b, m->mNumBones);
    for (uint32_t i = 0; i < m->mNumBones; i++) {
        const struct aiBone *bone = m->mBones[i];
        put_aistr(b, &bone->mName);
        put_matrix(b, &bone->mOffsetMatrix);
        put_u32(b, bone->mNumWeights);
        for (uint32_t w = 0; w < bone->mNumWeights; w++)
            put_u32(b, bone->mWeights[w].mVertexId), put_f32(b, bone->mWeights[w].mWeight);
    }
    uint32_t targets = 0;
    for (uint32_t i = 0; i < m->mNumAnimMeshes; i++)
        targets += m->mAnimMeshes[i] && m->mAnimMeshes[i]->mNumVertices == v;
    put_u32(b, targets);
    for (uint32_t i = 0; i < m->mNumAnimMeshes; i++) {
        const struct aiAnimMesh *am = m->mAnimMeshes[i];
        if (!am || am->mNumVertices != v) continue;
        put_aistr(b, &am->mName);
        put_f32(b, am->mWeight);
        /* assimp keeps whole positions and normals per shape; kiln's targets are deltas. */
        bool pos = am->mVertices != NULL, nrm = am->mNormals && m->mNormals;
        put_u32(b, (pos ? ASSIMP_TARGET_POSITIONS : 0) | (nrm ? ASSIMP_TARGET_NORMALS : 0));
        if (pos)
            for (uint32_t k = 0; k < v; k++)
                put_f32(b, am->mVertices[k].x - m->mVertices[k].x),
                    put_f32(b, am->mVertices[k].y - m->mVertices[k].y),
                    put_f32(b, am->mVertices[k].z - m->mVertices[k].z);
        if (nrm)
            for (uint32_t k = 0; k < v; k++)
                put_f32(b, am->mNormals[k].x - m->mNormals[k].x),
                    put_f32(b, am->mNormals[k].y - m->mNormals[k].y),
                    put_f32(b, am->mNormals[k].z - m->mNormals[k].z);
    }
}

typedef struct node_item {
    const struct aiNode *node;
    int32_t parent;
} node_item;

/* Nodes parents first (an explicit stack: a deep hierarchy must not exhaust ours). */
static bool put_nodes(wbuf *b, const struct aiScene *s, const uint32_t *mesh_map)
{
    size_t cap = 64, top = 0;
    uint32_t count = 0;
    node_item *stack = malloc(cap * sizeof *stack);
    if (!stack) return false;
    size_t count_at = b->n;
    put_u32(b, 0);
    if (s->mRootNode) stack[top++] = (node_item){s->mRootNode, -1};
    while (top && !b->failed) {
        node_item it = stack[--top];
        const struct aiNode *n = it.node;
        uint32_t self = count++;
        put_aistr(b, &n->mName);
        put_i32(b, it.parent);
        put_matrix(b, &n->mTransformation);
        uint32_t meshes = 0;
        for (unsigned i = 0; i < n->mNumMeshes; i++)
            meshes += n->mMeshes[i] < s->mNumMeshes && mesh_map[n->mMeshes[i]] != UINT32_MAX;
        put_u32(b, meshes);
        for (unsigned i = 0; i < n->mNumMeshes; i++)
            if (n->mMeshes[i] < s->mNumMeshes && mesh_map[n->mMeshes[i]] != UINT32_MAX)
                put_u32(b, mesh_map[n->mMeshes[i]]);
        for (unsigned i = n->mNumChildren; i-- > 0;) {
            if (!n->mChildren[i]) continue;
            if (top == cap) {
                node_item *ns = realloc(stack, cap * 2 * sizeof *ns);
                if (!ns) {
                    free(stack);
                    return false;
                }
                stack = ns;
                cap *= 2;
            }
            stack[top++] = (node_item){n->mChildren[i], (int32_t)self};
        }
    }
    free(stack);
    if (!b->failed) memcpy(b->p + count_at, &count, 4);
    return !b->failed;
}

static void put_animations(wbuf *b, const struct aiScene *s, wbuf *warnings,
                           uint32_t *warning_count)
{
    put_u32(b, s->mNumAnimations);
    for (unsigned i = 0; i < s->mNumAnimations; i++) {
        const struct aiAnimation *a = s->mAnimations[i];
        put_aistr(b, &a->mName);
        put_f64(b, a->mDuration);
        put_f64(b, a->mTicksPerSecond);
        put_u32(b, a->mNumChannels);
        for (unsigned c = 0; c < a->mNumChannels; c++) {
            const struct aiNodeAnim *ch = a->mChannels[c];
            put_aistr(b, &ch->mNodeName);
            put_u32(b, ch->mNumPositionKeys);
            for (unsigned k = 0; k < ch->mNumPositionKeys; k++) {
                const struct aiVectorKey *key = &ch->mPositionKeys[k];
                put_f64(b, key->mTime);
                put_f32(b, key->mValue.x), put_f32(b, key->mValue.y), put_f32(b, key->mValue.z);
            }
            put_u32(b, ch->mNumRotationKeys);
            for (unsigned k = 0; k < ch->mNumRotationKeys; k++) {
                const struct aiQuatKey *key = &ch->mRotationKeys[k];
                put_f64(b, key->mTime);
                put_f32(b, key->mValue.x), put_f32(b, key->mValue.y), put_f32(b, key->mValue.z),
                    put_f32(b, key->mValue.w);
            }
            put_u32(b, ch->mNumScalingKeys);
            for (unsigned k = 0; k < ch->mNumScalingKeys; k++) {
                const struct aiVectorKey *key = &ch->mScalingKeys[k];
                put_f64(b, key->mTime);
                put_f32(b, key->mValue.x), put_f32(b, key->mValue.y), put_f32(b, key->mValue.z);
            }
        }
        put_u32(b, a->mNumMorphMeshChannels);
        for (unsigned c = 0; c < a->mNumMorphMeshChannels; c++) {
            const struct aiMeshMorphAnim *ch = a->mMorphMeshChannels[c];
            put_aistr(b, &ch->mName);
            put_u32(b, ch->mNumKeys);
            for (unsigned k = 0; k < ch->mNumKeys; k++) {
                const struct aiMeshMorphKey *key = &ch->mKeys[k];
                put_f64(b, key->mTime);
                put_u32(b, key->mNumValuesAndWeights);
                for (unsigned v = 0; v < key->mNumValuesAndWeights; v++)
                    put_u32(b, key->mValues[v]), put_f64(b, key->mWeights[v]);
            }
        }
        if (a->mNumMeshChannels) {
            char text[MAXLEN + 96];
            snprintf(text, sizeof text,
                     "animation \"%s\": %u vertex-animation channels not imported", a->mName.data,
                     a->mNumMeshChannels);
            put_str(warnings, text);
            (*warning_count)++;
        }
    }
}

/* The blob of a scene assimp read; false when memory ran out. */
static bool put_scene(wbuf *b, const struct aiScene *s, io_state *io, const assimp_api *ai)
{
    wbuf *w = io->warnings;
    uint32_t *wc = io->warning_count;
    uint32_t *mesh_map = calloc(s->mNumMeshes ? s->mNumMeshes : 1, sizeof *mesh_map);
    uint32_t *tris = calloc(s->mNumMeshes ? s->mNumMeshes : 1, sizeof *tris);
    if (!mesh_map || !tris) {
        free(mesh_map), free(tris);
        return false;
    }
    uint32_t kept = 0;
    char text[MAXLEN + 128];
    for (unsigned i = 0; i < s->mNumMeshes; i++) {
        const struct aiMesh *m = s->mMeshes[i];
        uint32_t t = 0, other = 0;
        for (unsigned f = 0; f < m->mNumFaces; f++) {
            if (m->mFaces[f].mNumIndices == 3) t++;
            else other++;
        }
        tris[i] = t;
        mesh_map[i] = t ? kept++ : UINT32_MAX;
        if (other) {
            snprintf(text, sizeof text,
                     "mesh \"%s\": %u point and line primitives dropped "
                     "(kiln cooks triangles)",
                     m->mName.data, other);
            put_str(w, text);
            (*wc)++;
        }
    }
    for (unsigned i = 0; i < s->mNumCameras; i++) {
        snprintf(text, sizeof text, "camera \"%s\" not imported", s->mCameras[i]->mName.data);
        put_str(w, text);
        (*wc)++;
    }
    for (unsigned i = 0; i < s->mNumLights; i++) {
        snprintf(text, sizeof text, "light \"%s\" not imported", s->mLights[i]->mName.data);
        put_str(w, text);
        (*wc)++;
    }
    wbuf body = {0};
    put_embedded(&body, s);
    put_materials(&body, s, ai);
    put_u32(&body, kept);
    for (unsigned i = 0; i < s->mNumMeshes; i++)
        if (tris[i]) put_mesh(&body, s->mMeshes[i], tris[i]);
    bool ok = put_nodes(&body, s, mesh_map);
    put_animations(&body, s, w, wc);
    put_meta(b, s);
    put_u32(b, *wc);
    put(b, w->p, w->n);
    put_u32(b, io->count);
    for (uint32_t i = 0; i < io->count; i++) {
        put_str(b, io->names[i]);
        put_u32(b, io->found[i]);
    }
    put(b, body.p, body.n);
    ok = ok && !body.failed && !b->failed && !w->failed;
    free(body.p);
    free(mesh_map);
    free(tris);
    return ok;
}

int kiln_assimp_child_main(const assimp_job *job, int fd)
{
    wbuf warnings = {0};
    uint32_t warning_count = 0;
    io_state io;
    memset(&io, 0, sizeof io);
    io.job = job;
    /* The extension picks assimp's reader; the name cannot collide with a file of the folder
     * since every other name is opened as a path under it. */
    io.model_name = job->format == KILN_ASSIMP_OBJ ? "\x01kiln-model.obj" : "\x01kiln-model.fbx";
    io.warnings = &warnings;
    io.warning_count = &warning_count;
    assimp_api ai;
    char dl_why[256];
    if (!kiln_assimp_dl_load(job->library, &ai, dl_why, sizeof dl_why)) {
        char msg[400];
        snprintf(msg, sizeof msg, "FBX/OBJ import needs libassimp5 (%s)", dl_why);
        return send_error(fd, KILN_E_IMPORT_UNSUPPORTED, msg);
    }
    struct aiFileIO fio = {io_open, io_close, (aiUserData)&io};
    struct aiPropertyStore *props = ai.CreatePropertyStore();
    /* Embedded textures named "*<index>" in materials (the legacy naming) need no name match.
     * Pivots as extra "$AssimpFbx$" nodes would change the hierarchy animations address. */
    ai.SetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
    ai.SetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_READ_ANIMATIONS, !job->skip_animations);
    ai.SetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_EMBEDDED_TEXTURES_LEGACY_NAMING, 1);
    unsigned flags = aiProcess_Triangulate | aiProcess_SortByPType |
                     aiProcess_JoinIdenticalVertices | aiProcess_ValidateDataStructure |
                     aiProcess_FlipUVs;
    const struct aiScene *s = ai.ImportFileExWithProperties(io.model_name, flags, &fio, props);
    ai.ReleasePropertyStore(props);
    if (!s) {
        const char *why = ai.GetErrorString();
        char msg[512];
        snprintf(msg, sizeof msg, "assimp cannot read the %s file: %s",
                 kiln_assimp_format_name(job->format), why && *why ? why : "no reason given");
        bool old = why && strstr(why, "old format version");
        return send_error(fd, old ? KILN_E_IMPORT_UNSUPPORTED : KILN_E_IMPORT_FAILED, msg);
    }
    wbuf b = {0};
    put_u32(&b, ASSIMP_BLOB_MAGIC);
    put_u32(&b, ASSIMP_BLOB_VERSION);
    put_u32(&b, (uint32_t)job->format);
    bool ok = put_scene(&b, s, &io, &ai);
    ai.ReleaseImport(s);
    if (!ok) return send_error(fd, KILN_E_OUT_OF_MEMORY, "out of memory in assimp's process");
    return send_all(fd, b.p, b.n) ? 0 : 1;
}
