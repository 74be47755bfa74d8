// test_cxx_api.cpp — kiln from C++17, as an engine would adopt it: cook BoxTextured with kiln.h
// into a temporary project, then load its scene with kiln_rt.h through the engine's own job
// scheduler (std::thread) and a renderer of captureless lambdas that says it cannot sample BC7,
// so the runtime transcodes the texture to RGBA8. Checks what each callback got, the material
// table, release and destroy. Exit 77 (skipped) without the corpus.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kiln/kiln.h"
#include "kiln/kiln_rt.h"

int cxx11_handle_parts(uint64_t id, uint32_t *slot); // headers_cxx11.cpp

namespace fs = std::filesystem;

static int failures = 0;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);          \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

// The engine's scheduler: a thread per job, joined when the runtime waits.
struct Scheduler {
    std::mutex mu;
    std::vector<std::thread> threads;
    std::atomic<int> submitted{0};
};

static bool sched_submit(void *user, krt_job_fn fn, void *arg)
{
    auto *s = static_cast<Scheduler *>(user);
    std::lock_guard<std::mutex> lock(s->mu);
    s->threads.emplace_back(fn, arg);
    s->submitted++;
    return true;
}

static void sched_wait(void *user, bool (*done)(void *), void *done_arg)
{
    auto *s = static_cast<Scheduler *>(user);
    while (!done(done_arg)) std::this_thread::yield();
    for (;;) { // join what ran (jobs may have queued others before finishing)
        std::vector<std::thread> ts;
        {
            std::lock_guard<std::mutex> lock(s->mu);
            ts.swap(s->threads);
        }
        if (ts.empty()) break;
        for (auto &t : ts) t.join();
    }
}

// What the renderer saw.
struct Recorder {
    int textures = 0, meshes = 0, materials = 0, destroyed = 0;
    uint32_t texture_format = 0, texture_width = 0;
    size_t mesh_index_bytes = 0;
    std::thread::id render_thread = std::this_thread::get_id();
    bool off_thread = false;
};

int main()
{
    uint32_t slot = 0;
    CHECK(cxx11_handle_parts((uint64_t)KRT_TYPE_MESH << 56 | 7, &slot) == KRT_TYPE_MESH &&
          slot == 7);

    const char *corpus = std::getenv("KILN_CORPUS");
    fs::path box = fs::path(corpus ? corpus : "") / "gltf" / "BoxTextured" / "glTF";
    if (!corpus || !fs::exists(box)) {
        std::printf("skipped: no corpus BoxTextured (KILN_CORPUS)\n");
        return 77;
    }
    std::string tmpl = (fs::temp_directory_path() / "kiln-cxx-XXXXXX").string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    CHECK(mkdtemp(buf.data()) != nullptr);
    fs::path project(buf.data());
    fs::create_directories(project / "assets" / "box");
    for (const auto &e : fs::directory_iterator(box))
        fs::copy(e.path(), project / "assets" / "box");

    // cook
    kiln_project_opts po{};
    po.struct_size = sizeof po;
    std::string pdir = project.string();
    po.project_dir = pdir.c_str();
    po.jobs = 2;
    kiln_project *p = nullptr;
    kiln_error err{};
    CHECK(kiln_project_open(&po, &p, &err) == KILN_OK);
    char *doc = nullptr;
    CHECK(kiln_project_import(p, nullptr, 0, KILN_IMPORT_ALL, &doc, &err) == KILN_OK);
    CHECK(doc && std::strstr(doc, "BoxTextured"));
    kiln_string_free(doc);
    kiln_project_close(p);

    // load
    Scheduler sched;
    Recorder rec;
    krt_desc d{};
    d.struct_size = sizeof d;
    d.jobs.submit = sched_submit;
    d.jobs.wait = sched_wait;
    d.jobs.user = &sched;
    d.renderer.user = &rec;
    d.renderer.supports_format = [](void *, uint32_t f) {
        return f != KILN_VK_FORMAT_BC7_UNORM_BLOCK && f != KILN_VK_FORMAT_BC7_SRGB_BLOCK;
    };
    d.renderer.create_texture = [](void *u, krt_handle, const krt_texture_data *t, void **gpu,
                                   kiln_error *) -> kiln_result {
        auto *r = static_cast<Recorder *>(u);
        r->off_thread |= std::this_thread::get_id() != r->render_thread;
        r->textures++;
        r->texture_format = t->vk_format;
        r->texture_width = t->width;
        *gpu = r;
        return KILN_OK;
    };
    d.renderer.destroy_texture = [](void *u, krt_handle, void *) {
        static_cast<Recorder *>(u)->destroyed++;
    };
    d.renderer.create_mesh = [](void *u, krt_handle, const krt_mesh_data *m, void **gpu,
                                kiln_error *) -> kiln_result {
        auto *r = static_cast<Recorder *>(u);
        r->off_thread |= std::this_thread::get_id() != r->render_thread;
        r->meshes++;
        r->mesh_index_bytes += m->stream_sizes[KILN_MESH_INDICES];
        *gpu = r;
        return KILN_OK;
    };
    d.renderer.destroy_mesh = [](void *u, krt_handle, void *) {
        static_cast<Recorder *>(u)->destroyed++;
    };
    d.renderer.create_material = [](void *u, krt_handle, const krt_material_data *m, void **gpu,
                                    kiln_error *) -> kiln_result {
        auto *r = static_cast<Recorder *>(u);
        r->materials++;
        // the texture was created first: the material gets the renderer's object for it
        if (m->texture_gpu[KILN_MATERIAL_SLOT_BASE_COLOR] != r) return KILN_E_INTERNAL;
        *gpu = r;
        return KILN_OK;
    };
    d.renderer.destroy_material = [](void *u, krt_handle, void *) {
        static_cast<Recorder *>(u)->destroyed++;
    };

    krt_context *ctx = nullptr;
    CHECK(krt_create(&d, &ctx, &err) == KILN_OK);
    size_t count = 0;
    std::string cache = (project / ".kiln" / "cache").string();
    CHECK(krt_mount_cache(ctx, cache.c_str(), &count, &err) == KILN_OK);
    CHECK(count >= 4); // scene, mesh, material, image
    krt_handle scene = krt_load_scene(ctx, "box/BoxTextured.gltf#scene", &err);
    CHECK(scene.id != 0 && krt_handle_type(scene) == KRT_TYPE_SCENE);
    krt_handle wrong = krt_load_mesh(ctx, "box/BoxTextured.gltf#scene", &err);
    CHECK(wrong.id == 0 && err.code == KILN_E_USAGE); // loaded as another type
    krt_finish(ctx);
    CHECK(krt_state_of(ctx, scene) == KRT_STATE_READY);
    CHECK(sched.submitted.load() >= 4);

    krt_scene_data s{};
    CHECK(krt_get_scene(ctx, scene, &s, &err) == KILN_OK);
    CHECK(s.view && s.view->primitive_count == 1);
    krt_mesh_data m{};
    CHECK(krt_get_mesh(ctx, s.primitives[0], &m, &err) == KILN_OK);
    CHECK(m.view && m.view->index_count >= 36); // 12 triangles at level 0
    CHECK(rec.meshes == 1 && rec.textures == 1 && rec.materials == 1 && !rec.off_thread);
    CHECK(rec.texture_format == KILN_VK_FORMAT_R8G8B8A8_SRGB); // BC7 transcoded for us
    CHECK(rec.texture_width > 0 && rec.mesh_index_bytes >= 36 * 2);
    const krt_gpu_material *table = nullptr;
    size_t records = 0;
    uint64_t generation = 0;
    krt_material_table(ctx, &table, &records, &generation);
    CHECK(table && records >= 1);
    uint32_t index = krt_material_index(ctx, m.material);
    krt_material_data md{};
    CHECK(krt_get_material(ctx, m.material, &md, &err) == KILN_OK);
    CHECK(index < records && md.textures[KILN_MATERIAL_SLOT_BASE_COLOR].id != 0);
    if (index < records) // the record points at the texture by its slot (a bindless index)
        CHECK(table[index].textures[KILN_MATERIAL_SLOT_BASE_COLOR] ==
              krt_handle_slot(md.textures[KILN_MATERIAL_SLOT_BASE_COLOR]));

    CHECK(krt_release(ctx, scene, &err) == KILN_OK);
    CHECK(krt_release(ctx, scene, &err) == KILN_E_USAGE); // past zero: an error, not a crash
    krt_update(ctx);
    CHECK(rec.destroyed == 3);
    krt_destroy(ctx);
    fs::remove_all(project);
    if (failures) std::fprintf(stderr, "%d check(s) failed\n", failures);
    else std::printf("cxx_api: cooked and loaded BoxTextured from C++17\n");
    return failures ? 1 : 0;
}
