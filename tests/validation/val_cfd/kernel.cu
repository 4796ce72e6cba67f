// val_cfd: one step of an unstructured-grid 3D Euler solver in the style of the classic euler3d benchmark:
// 97152 elements x 5 conserved variables (variable-major), 4 neighbours per element (some wall / far-field),
// thread per element: copy of the old state, local step factors, and 3 Runge-Kutta stages of (flux, time step).
#define NNB 4
#define NVAR 5
#define VAR_DENSITY 0
#define VAR_MOMENTUM 1
#define VAR_DENSITY_ENERGY 4
#define GAMMA 1.4f
#define SMOOTHING 0.2f
#define FF_MACH 1.2f
#define ANGLE_OF_ATTACK 0.05235988f
__device__ __forceinline__ unsigned hashu(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return i; }
__device__ __forceinline__ float hashf(unsigned i) { return (hashu(i) & 0xffff) * (1.0f / 16384.0f) - 2.0f; }

struct V3 { float x, y, z; };

__device__ __forceinline__ float pressure_of(float density, float density_energy, float speed_sqd)
{
    return (GAMMA - 1.0f) * (density_energy - 0.5f * density * speed_sqd);
}
__device__ __forceinline__ float sound_speed_of(float density, float pressure) { return sqrtf(GAMMA * pressure / density); }

// convective flux tensor rows of one state: momentum x/y/z rows and the energy flux
__device__ __forceinline__ void flux_contribution(float density_energy, V3 mom, V3 vel, float pressure,
                                                  V3 &fx, V3 &fy, V3 &fz, V3 &fe)
{
    fx.x = mom.x * vel.x + pressure; fx.y = mom.x * vel.y; fx.z = mom.x * vel.z;
    fy.x = fx.y; fy.y = mom.y * vel.y + pressure; fy.z = mom.y * vel.z;
    fz.x = fx.z; fz.y = fy.z; fz.z = mom.z * vel.z + pressure;
    float de_p = density_energy + pressure;
    fe.x = vel.x * de_p; fe.y = vel.y * de_p; fe.z = vel.z * de_p;
}

// thread per element: state, area, neighbour indices (-1 wall, -2 far field), face normals;
// thread 0 also writes the far-field state and its flux rows to ff[0..19] (constant memory in the classic code)
extern "C" __global__ void init(float *variables, float *areas, int *esel, float *normals, float *ff, int nelr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nelr) {
        unsigned h = (unsigned)i * 16u;
        float rho = 1.0f + 0.1f * hashf(h), vx = 0.3f * hashf(h + 1), vy = 0.3f * hashf(h + 2), vz = 0.3f * hashf(h + 3);
        float p = 1.0f + 0.05f * hashf(h + 4);
        variables[VAR_DENSITY * nelr + i] = rho;
        variables[(VAR_MOMENTUM + 0) * nelr + i] = rho * vx;
        variables[(VAR_MOMENTUM + 1) * nelr + i] = rho * vy;
        variables[(VAR_MOMENTUM + 2) * nelr + i] = rho * vz;
        variables[VAR_DENSITY_ENERGY * nelr + i] = p / (GAMMA - 1.0f) + 0.5f * rho * (vx * vx + vy * vy + vz * vz);
        areas[i] = 0.5f + (hashu(h + 5) & 0xffff) * (1.0f / 65536.0f);
        for (int j = 0; j < NNB; j++) {
            unsigned r = hashu(h + 6 + j), r2 = hashu(h + 10 + j);
            unsigned sel = r % 1000u;
            int nb;
            if (sel < 15u) nb = -1;
            else if (sel < 25u) nb = -2;
            else if (sel < 100u) nb = (int)(r2 % (unsigned)nelr);
            else nb = (int)(((unsigned)i + (unsigned)nelr + (r2 % 2049u) - 1024u) % (unsigned)nelr);
            esel[j * nelr + i] = nb;
            for (int d = 0; d < 3; d++) normals[(j + d * NNB) * nelr + i] = 0.05f * hashf(((unsigned)i * 16u + (unsigned)(j * 3 + d)) ^ 0x55555555u);
        }
    }
    if (i == 0) {
        float rho = 1.4f, p = 1.0f;
        float c = sqrtf(GAMMA * p / rho), speed = FF_MACH * c;
        V3 vel = {speed * cosf(ANGLE_OF_ATTACK), speed * sinf(ANGLE_OF_ATTACK), 0.0f};
        V3 mom = {rho * vel.x, rho * vel.y, rho * vel.z};
        float de = rho * (0.5f * speed * speed) + p / (GAMMA - 1.0f);
        V3 fx, fy, fz, fe;
        flux_contribution(de, mom, vel, p, fx, fy, fz, fe);
        ff[0] = rho; ff[1] = mom.x; ff[2] = mom.y; ff[3] = mom.z; ff[4] = de;
        ff[5] = fx.x; ff[6] = fx.y; ff[7] = fx.z;
        ff[8] = fy.x; ff[9] = fy.y; ff[10] = fy.z;
        ff[11] = fz.x; ff[12] = fz.y; ff[13] = fz.z;
        ff[14] = fe.x; ff[15] = fe.y; ff[16] = fe.z;
    }
}

extern "C" __global__ void copy(float *dst, const float *src, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = src[i];
}

extern "C" __global__ void compute_step_factor(int nelr, const float *variables, const float *areas, float *step_factors)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nelr) return;
    float density = variables[VAR_DENSITY * nelr + i];
    V3 mom = {variables[(VAR_MOMENTUM + 0) * nelr + i], variables[(VAR_MOMENTUM + 1) * nelr + i], variables[(VAR_MOMENTUM + 2) * nelr + i]};
    float density_energy = variables[VAR_DENSITY_ENERGY * nelr + i];
    V3 vel = {mom.x / density, mom.y / density, mom.z / density};
    float speed_sqd = vel.x * vel.x + vel.y * vel.y + vel.z * vel.z;
    float pressure = pressure_of(density, density_energy, speed_sqd);
    float c = sound_speed_of(density, pressure);
    step_factors[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(speed_sqd) + c));
}

extern "C" __global__ void compute_flux(int nelr, const int *esel, const float *normals, const float *variables,
                                        const float *__restrict__ ff, float *fluxes)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nelr) return;
    float density_i = variables[VAR_DENSITY * nelr + i];
    V3 mom_i = {variables[(VAR_MOMENTUM + 0) * nelr + i], variables[(VAR_MOMENTUM + 1) * nelr + i], variables[(VAR_MOMENTUM + 2) * nelr + i]};
    float de_i = variables[VAR_DENSITY_ENERGY * nelr + i];
    V3 vel_i = {mom_i.x / density_i, mom_i.y / density_i, mom_i.z / density_i};
    float speed_sqd_i = vel_i.x * vel_i.x + vel_i.y * vel_i.y + vel_i.z * vel_i.z;
    float speed_i = sqrtf(speed_sqd_i);
    float pressure_i = pressure_of(density_i, de_i, speed_sqd_i);
    float c_i = sound_speed_of(density_i, pressure_i);
    V3 fx_i, fy_i, fz_i, fe_i;
    flux_contribution(de_i, mom_i, vel_i, pressure_i, fx_i, fy_i, fz_i, fe_i);

    float flux_density = 0.0f, flux_de = 0.0f;
    V3 flux_mom = {0.0f, 0.0f, 0.0f};
    for (int j = 0; j < NNB; j++) {
        int nb = esel[j * nelr + i];
        V3 n = {normals[(j + 0 * NNB) * nelr + i], normals[(j + 1 * NNB) * nelr + i], normals[(j + 2 * NNB) * nelr + i]};
        float normal_len = sqrtf(n.x * n.x + n.y * n.y + n.z * n.z);
        if (nb >= 0) {
            float density_nb = variables[VAR_DENSITY * nelr + nb];
            V3 mom_nb = {variables[(VAR_MOMENTUM + 0) * nelr + nb], variables[(VAR_MOMENTUM + 1) * nelr + nb], variables[(VAR_MOMENTUM + 2) * nelr + nb]};
            float de_nb = variables[VAR_DENSITY_ENERGY * nelr + nb];
            V3 vel_nb = {mom_nb.x / density_nb, mom_nb.y / density_nb, mom_nb.z / density_nb};
            float speed_sqd_nb = vel_nb.x * vel_nb.x + vel_nb.y * vel_nb.y + vel_nb.z * vel_nb.z;
            float pressure_nb = pressure_of(density_nb, de_nb, speed_sqd_nb);
            float c_nb = sound_speed_of(density_nb, pressure_nb);
            V3 fx_nb, fy_nb, fz_nb, fe_nb;
            flux_contribution(de_nb, mom_nb, vel_nb, pressure_nb, fx_nb, fy_nb, fz_nb, fe_nb);
            // artificial viscosity
            float factor = -normal_len * SMOOTHING * 0.5f * (speed_i + sqrtf(speed_sqd_nb) + c_i + c_nb);
            flux_density += factor * (density_i - density_nb);
            flux_de += factor * (de_i - de_nb);
            flux_mom.x += factor * (mom_i.x - mom_nb.x);
            flux_mom.y += factor * (mom_i.y - mom_nb.y);
            flux_mom.z += factor * (mom_i.z - mom_nb.z);
            // central convective flux through the face
            factor = 0.5f * n.x;
            flux_density += factor * (mom_nb.x + mom_i.x);
            flux_de += factor * (fe_nb.x + fe_i.x);
            flux_mom.x += factor * (fx_nb.x + fx_i.x);
            flux_mom.y += factor * (fy_nb.x + fy_i.x);
            flux_mom.z += factor * (fz_nb.x + fz_i.x);
            factor = 0.5f * n.y;
            flux_density += factor * (mom_nb.y + mom_i.y);
            flux_de += factor * (fe_nb.y + fe_i.y);
            flux_mom.x += factor * (fx_nb.y + fx_i.y);
            flux_mom.y += factor * (fy_nb.y + fy_i.y);
            flux_mom.z += factor * (fz_nb.y + fz_i.y);
            factor = 0.5f * n.z;
            flux_density += factor * (mom_nb.z + mom_i.z);
            flux_de += factor * (fe_nb.z + fe_i.z);
            flux_mom.x += factor * (fx_nb.z + fx_i.z);
            flux_mom.y += factor * (fy_nb.z + fy_i.z);
            flux_mom.z += factor * (fz_nb.z + fz_i.z);
        } else if (nb == -1) {  // wall: only the pressure acts
            flux_mom.x += n.x * pressure_i;
            flux_mom.y += n.y * pressure_i;
            flux_mom.z += n.z * pressure_i;
        } else if (nb == -2) {  // far field
            float factor = 0.5f * n.x;
            flux_density += factor * (ff[1] + mom_i.x);
            flux_de += factor * (ff[14] + fe_i.x);
            flux_mom.x += factor * (ff[5] + fx_i.x);
            flux_mom.y += factor * (ff[8] + fy_i.x);
            flux_mom.z += factor * (ff[11] + fz_i.x);
            factor = 0.5f * n.y;
            flux_density += factor * (ff[2] + mom_i.y);
            flux_de += factor * (ff[15] + fe_i.y);
            flux_mom.x += factor * (ff[6] + fx_i.y);
            flux_mom.y += factor * (ff[9] + fy_i.y);
            flux_mom.z += factor * (ff[12] + fz_i.y);
            factor = 0.5f * n.z;
            flux_density += factor * (ff[3] + mom_i.z);
            flux_de += factor * (ff[16] + fe_i.z);
            flux_mom.x += factor * (ff[7] + fx_i.z);
            flux_mom.y += factor * (ff[10] + fy_i.z);
            flux_mom.z += factor * (ff[13] + fz_i.z);
        }
    }
    fluxes[VAR_DENSITY * nelr + i] = flux_density;
    fluxes[(VAR_MOMENTUM + 0) * nelr + i] = flux_mom.x;
    fluxes[(VAR_MOMENTUM + 1) * nelr + i] = flux_mom.y;
    fluxes[(VAR_MOMENTUM + 2) * nelr + i] = flux_mom.z;
    fluxes[VAR_DENSITY_ENERGY * nelr + i] = flux_de;
}

// Runge-Kutta stage: variables = old + (step_factor * stage) * fluxes, stage = 1 / (RK + 1 - j)
extern "C" __global__ void time_step(int nelr, float stage, const float *old_variables, float *variables,
                                     const float *step_factors, const float *fluxes)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nelr) return;
    float factor = step_factors[i] * stage;
    for (int v = 0; v < NVAR; v++) variables[v * nelr + i] = old_variables[v * nelr + i] + factor * fluxes[v * nelr + i];
}
